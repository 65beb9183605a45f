package webapps.sci;

/** A plugin in WEB-INF/classes. */
public class ClockPlugin implements Plugin {
}
