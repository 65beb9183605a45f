package webapps.sci;

/** What {@link PluginInitializer} handles. */
public interface Plugin {
}
