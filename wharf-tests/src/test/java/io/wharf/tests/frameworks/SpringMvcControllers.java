package io.wharf.tests.frameworks;

import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** The controllers of {@link SpringMvcApplication}, each a public nested class that {@code WebConfig} imports. */
public final class SpringMvcControllers {

    private SpringMvcControllers() {
    }

    /** JSON in and out with Jackson, validation, path variables and query parameters, deferred and callable results. */
    @RestController
    @RequestMapping("/api/items")
    public static class Items {

        private final Inventory inventory;
        private final ScheduledExecutorService workers;

        public Items(Inventory inventory, ScheduledExecutorService workers) {
            this.inventory = inventory;
            this.workers = workers;
        }

        @GetMapping
        public List<Item> search(@RequestParam(name = "q", defaultValue = "") String text,
                                 @RequestParam(name = "limit", defaultValue = "10") int limit) {
            return inventory.search(text, limit);
        }

        @GetMapping("/{id}")
        public Item item(@PathVariable("id") long id) {
            return inventory.find(id).orElseThrow(() -> new ItemNotFoundException(id));
        }

        /** Adds the item; answers 201 with the new item's absolute URI, built from the request. */
        @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
        public ResponseEntity<Item> add(@Valid @RequestBody Item item) {
            Item added = inventory.add(item.name(), item.price());
            URI location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").buildAndExpand(added.id()).toUri();
            return ResponseEntity.created(location).body(added);
        }

        /** The item, 50 ms later, from a worker thread; the header names that thread. */
        @GetMapping("/{id}/later")
        public DeferredResult<ResponseEntity<Item>> later(@PathVariable("id") long id) {
            DeferredResult<ResponseEntity<Item>> result = new DeferredResult<>();
            workers.schedule(() -> inventory.find(id).ifPresentOrElse(
                item -> result.setResult(ResponseEntity.ok().header("X-Completed-By", Thread.currentThread().getName()).body(item)),
                () -> result.setErrorResult(new ItemNotFoundException(id))), 50, TimeUnit.MILLISECONDS);
            return result;
        }

        /** A deferred result that is never set: the container's async timeout ends it (Spring answers 503). */
        @GetMapping("/never")
        public DeferredResult<Item> never() {
            return new DeferredResult<>(300L);
        }

        /** The item, computed on Spring's async task executor. */
        @GetMapping("/{id}/callable")
        public Callable<Map<String, Object>> callable(@PathVariable("id") long id) {
            return () -> new TreeMap<>(Map.of("item", item(id), "thread", Thread.currentThread().getName()));
        }
    }

    /** A multipart upload. */
    @RestController
    public static class Upload {

        @PostMapping(path = "/api/upload", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
        public Map<String, Object> upload(@RequestParam("file") MultipartFile file, @RequestParam("note") String note) throws Exception {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("name", file.getName());
            answer.put("filename", file.getOriginalFilename());
            answer.put("contentType", file.getContentType());
            answer.put("size", file.getSize());
            answer.put("sha256", sha256(file.getBytes()));
            answer.put("note", note);
            return answer;
        }

        private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        }
    }

    /** The release latches of the event streams, by stream name: a stream sends its first event, then waits to be released. */
    public static final class Streams {

        private final Map<String, CountDownLatch> latches = new ConcurrentHashMap<>();

        CountDownLatch open(String stream) {
            CountDownLatch latch = new CountDownLatch(1);
            latches.put(stream, latch);
            return latch;
        }

        boolean release(String stream) {
            CountDownLatch latch = latches.remove(stream);
            if (latch == null) {
                return false;
            }
            latch.countDown();
            return true;
        }
    }

    /**
     * Server-sent events: a stream sends one event at once, and its other two only after
     * {@code POST /api/events/release?stream=NAME}, so a client that sees the first event before
     * it releases the stream proves the first one was flushed while the response was open.
     */
    @RestController
    public static class Events {

        private final Streams streams;
        private final ScheduledExecutorService workers;
        private final Inventory inventory;

        public Events(Streams streams, ScheduledExecutorService workers, Inventory inventory) {
            this.streams = streams;
            this.workers = workers;
            this.inventory = inventory;
        }

        @GetMapping(path = "/api/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        public SseEmitter events(@RequestParam("stream") String stream) {
            SseEmitter emitter = new SseEmitter(20_000L);
            CountDownLatch released = streams.open(stream);
            workers.execute(() -> {
                try {
                    emitter.send(SseEmitter.event().id("1").name("tick").data("one"));
                    if (!released.await(15, TimeUnit.SECONDS)) {
                        emitter.completeWithError(new IllegalStateException("stream " + stream + " was not released"));
                        return;
                    }
                    emitter.send(SseEmitter.event().id("2").name("tick").data("two"));
                    emitter.send(SseEmitter.event().id("3").name("item").data(inventory.find(1).orElseThrow(), MediaType.APPLICATION_JSON));
                    emitter.complete();
                } catch (Exception x) {
                    emitter.completeWithError(x);
                }
            });
            return emitter;
        }

        @PostMapping("/api/events/release")
        public ResponseEntity<Void> release(@RequestParam("stream") String stream) {
            return streams.release(stream) ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
        }
    }

    /** View names: a redirect and a forward, both resolved by Spring's default view resolver. */
    @Controller
    public static class Pages {

        @GetMapping("/old")
        public String old() {
            return "redirect:/api/items/1";
        }

        @GetMapping("/hello")
        public String hello() {
            return "forward:/static/hello.txt";
        }
    }

    /** What the servlet context tells a Spring application about the container, and what it refuses once started. */
    @RestController
    public static class Container {

        private final ServletContext servletContext;

        public Container(ServletContext servletContext) {
            this.servletContext = servletContext;
        }

        @GetMapping("/api/container")
        public Map<String, Object> facts(HttpServletRequest request) {
            Map<String, Object> facts = new TreeMap<>();
            facts.put("version", servletContext.getMajorVersion() + "." + servletContext.getMinorVersion());
            facts.put("effectiveVersion", servletContext.getEffectiveMajorVersion() + "." + servletContext.getEffectiveMinorVersion());
            facts.put("jspConfig", String.valueOf(servletContext.getJspConfigDescriptor()));
            facts.put("sessionCookie", servletContext.getSessionCookieConfig().getName());
            facts.put("trackingModes", servletContext.getEffectiveSessionTrackingModes().toString());
            facts.put("contextPath", servletContext.getContextPath() + " " + request.getContextPath());
            facts.put("servletPath", request.getServletPath() + " " + request.getPathInfo());
            facts.put("servlets", new TreeMap<>(servletContext.getServletRegistrations()).keySet().toString());
            facts.put("addServletWhenStarted", outcome(() -> servletContext.addServlet("late", new HttpServlet() {
            })));
            facts.put("cookieNameWhenStarted", outcome(() -> servletContext.getSessionCookieConfig().setName("LATE")));
            facts.put("trackingModesWhenStarted", outcome(() -> servletContext.setSessionTrackingModes(java.util.Set.of(SessionTrackingMode.URL))));
            return facts;
        }

        private static String outcome(Runnable action) {
            try {
                action.run();
                return "accepted";
            } catch (RuntimeException x) {
                return x.getClass().getSimpleName();
            }
        }
    }

    /** Maps exceptions to JSON answers. */
    @RestControllerAdvice
    public static class Errors {

        @ExceptionHandler
        @ResponseStatus(HttpStatus.NOT_FOUND)
        public Map<String, String> notFound(ItemNotFoundException x) {
            return Map.of("error", x.getMessage());
        }

        @ExceptionHandler
        @ResponseStatus(HttpStatus.BAD_REQUEST)
        public Map<String, Object> invalid(MethodArgumentNotValidException x) {
            Map<String, String> fields = new TreeMap<>();
            x.getBindingResult().getFieldErrors().forEach(error -> fields.put(error.getField(), error.getDefaultMessage()));
            return new TreeMap<>(Map.of("error", "invalid item", "fields", fields));
        }
    }
}
