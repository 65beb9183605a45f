package webapps.sci;

/** A plugin through a superclass. */
public class WeatherPlugin extends ClockPlugin {
}
