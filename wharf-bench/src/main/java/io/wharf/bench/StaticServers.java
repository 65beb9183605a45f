package io.wharf.bench;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import io.wharf.server.handler.resource.ResourceHandler;

import org.eclipse.jetty.http.content.FileMappingHttpContentFactory;
import org.eclipse.jetty.http.content.HttpContent;
import org.eclipse.jetty.http.content.ResourceHttpContentFactory;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.util.resource.ResourceFactory;

/**
 * The two static-file servers of the {@code static} macro run, Wharf and Jetty 12.1, set up
 * alike by {@link BenchServers} (one acceptor, one selector, the default thread pool), each
 * serving the files of one directory with its own resource handler. Started by
 * {@link ServerProcess} ({@code wharf-static DIR}, {@code jetty-static DIR}) in its own JVM.
 *
 * <p>Neither caches file content: each request opens the file and reads it into pooled
 * buffers, and a file of 1 MiB or more is memory-mapped per request instead (Wharf's default
 * mapping threshold; Jetty's default minimum mapped file size, both 1 MiB). Jetty's default
 * content factory chain ends in a {@code ValidatingCachingHttpContentFactory} that keeps
 * file contents in memory; it is left out here (its resource and file-mapping factories are
 * kept), since Wharf has no such cache. Both send an ETag (Wharf's strong, Jetty's weak:
 * each one's default kind), Last-Modified, Accept-Ranges, Content-Type and Content-Length,
 * and neither looks for precompressed variants.
 */
final class StaticServers {

    private StaticServers() {
    }

    static ServerProcess.Target wharf(InetSocketAddress address, Path directory) throws Exception {
        ResourceHandler handler = new ResourceHandler(directory);
        handler.setPrecompressedFormats(List.of());
        handler.setEtags(true);
        return BenchServers.wharf(address, handler);
    }

    static ServerProcess.Target jetty(InetSocketAddress address, Path directory) throws Exception {
        return BenchServers.jetty(address, server -> {
            org.eclipse.jetty.server.handler.ResourceHandler handler = new org.eclipse.jetty.server.handler.ResourceHandler() {
                @Override
                protected HttpContent.Factory newHttpContentFactory(ByteBufferPool.Sized pool) {
                    return new FileMappingHttpContentFactory(new ResourceHttpContentFactory(getBaseResource(), getMimeTypes(), pool));
                }
            };
            handler.setBaseResource(ResourceFactory.of(server).newResource(directory));
            handler.setPrecompressedFormats(List.of());
            handler.setEtags(true);
            handler.setDirAllowed(false);
            return handler;
        });
    }
}
