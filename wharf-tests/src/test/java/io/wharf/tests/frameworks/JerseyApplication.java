package io.wharf.tests.frameworks;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import org.glassfish.jersey.jackson.JacksonFeature;

/**
 * A Jakarta REST application for Jersey, as a user would write it for a servlet container:
 * {@link Items} reads and writes JSON (Jersey's Jackson feature), takes path and query parameters,
 * resumes a suspended {@link AsyncResponse} from a worker thread, and leaves one to time out;
 * {@link NotFound} maps {@link ItemNotFoundException} to a JSON 404. It is deployed with Jersey's
 * {@code ServletContainer} named by class in an init parameter; {@link Auto} is the same resource
 * under {@code @ApplicationPath}, for Jersey's servlet container initializer to deploy.
 */
public class JerseyApplication extends Application {

    /** The items of every deployment of the application in this JVM. */
    static final Inventory INVENTORY = new Inventory();

    /** The thread that resumes suspended responses; a daemon, living as long as the test JVM. */
    static final ScheduledExecutorService WORKER = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name("jersey-worker").daemon().factory());

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(Items.class, NotFound.class, JacksonFeature.class);
    }

    /** The same application under {@code /auto}, found by Jersey's {@code JerseyServletContainerInitializer}. */
    @ApplicationPath("/auto")
    public static class Auto extends JerseyApplication {
    }

    @Path("/items")
    @Produces(MediaType.APPLICATION_JSON)
    public static class Items {

        @GET
        public List<Item> search(@QueryParam("q") @DefaultValue("") String text, @QueryParam("limit") @DefaultValue("10") int limit) {
            return INVENTORY.search(text, limit);
        }

        @GET
        @Path("{id}")
        public Item item(@PathParam("id") long id) {
            return INVENTORY.find(id).orElseThrow(() -> new ItemNotFoundException(id));
        }

        /** Adds the item; 201 with its absolute URI, built by Jersey from the request. */
        @POST
        @Consumes(MediaType.APPLICATION_JSON)
        public Response add(Item item, @Context UriInfo uri) {
            Item added = INVENTORY.add(item.name(), item.price());
            URI location = uri.getAbsolutePathBuilder().path(Long.toString(added.id())).build();
            return Response.created(location).entity(added).build();
        }

        /** The item, 50 ms later, resumed by the worker thread; the header names it. */
        @GET
        @Path("{id}/later")
        public void later(@PathParam("id") long id, @Suspended AsyncResponse response) {
            response.setTimeout(10, TimeUnit.SECONDS);
            WORKER.schedule(() -> INVENTORY.find(id).ifPresentOrElse(
                item -> response.resume(Response.ok(item).header("X-Resumed-By", Thread.currentThread().getName()).build()),
                () -> response.resume(new ItemNotFoundException(id))), 50, TimeUnit.MILLISECONDS);
        }

        /** Suspended and never resumed: its timeout ends it (503 by Jakarta REST). */
        @GET
        @Path("never")
        public void never(@Suspended AsyncResponse response) {
            response.setTimeout(300, TimeUnit.MILLISECONDS);
        }

        /** An exception no mapper takes: Jersey hands it to the container, whose error page answers. */
        @GET
        @Path("broken")
        public Item broken() {
            throw new IllegalStateException("broken on purpose");
        }

        /** Which servlet deployed this request, as the servlet container says. */
        @GET
        @Path("where")
        public Map<String, String> where(@Context jakarta.servlet.http.HttpServletRequest request) {
            return new TreeMap<>(Map.of("servletPath", request.getServletPath(), "pathInfo", String.valueOf(request.getPathInfo()),
                "servlet", request.getHttpServletMapping().getServletName()));
        }
    }

    @Provider
    public static class NotFound implements ExceptionMapper<ItemNotFoundException> {

        @Override
        public Response toResponse(ItemNotFoundException failure) {
            return Response.status(Response.Status.NOT_FOUND).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("error", failure.getMessage())).build();
        }
    }
}
