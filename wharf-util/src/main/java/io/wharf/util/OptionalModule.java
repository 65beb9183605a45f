package io.wharf.util;

/**
 * The check a Wharf module makes before it uses a module it requires only statically (an HTTP
 * client or a WebSocket client that speaks HTTP/2 only when asked, and so runs without
 * {@code wharf-http2}): when the module is missing, the caller is refused at once with a message
 * that names the module and says how to add it, rather than failing later on another thread
 * when a class cannot load. Stateless; any thread may call it.
 */
public final class OptionalModule {

    private OptionalModule() {
    }

    /**
     * @param user a class of the module that needs {@code module}
     * @param module the needed module's name, {@code io.wharf.http2}
     * @param jar the artifact that holds it, {@code wharf-http2}
     * @param probe a class file of the module looked for when {@code user} runs on the class
     *     path ({@code io/wharf/http2/session/Http2Session.class}), or null to check module graphs only
     * @param feature what needs it, opening the message ({@code HttpTransport.H2C})
     * @throws IllegalStateException when {@code user} is in a named module whose layer lacks
     *     {@code module}, or on a class path where {@code probe} is not found
     */
    public static void require(Class<?> user, String module, String jar, String probe, String feature) {
        Module own = user.getModule();
        String missing = null;
        if (own.isNamed()) {
            ModuleLayer layer = own.getLayer();
            if (layer != null && layer.findModule(module).isEmpty()) {
                missing = "which is not in the module graph: put it on the module path and require it, or add --add-modules " + module;
            }
        } else if (probe != null) {
            ClassLoader loader = user.getClassLoader();
            if (loader != null && loader.getResource(probe) == null) {
                missing = "which is not on the class path: add the " + jar + " jar";
            }
        }
        if (missing != null) {
            throw new IllegalStateException(feature + " needs the module " + module + " (" + jar + "), " + missing);
        }
    }
}
