package io.wharf.websocket.internal;

import java.io.InputStream;
import java.io.Reader;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.annotations.OnWebSocketClose;
import io.wharf.websocket.api.annotations.OnWebSocketError;
import io.wharf.websocket.api.annotations.OnWebSocketFrame;
import io.wharf.websocket.api.annotations.OnWebSocketMessage;
import io.wharf.websocket.api.annotations.OnWebSocketOpen;
import io.wharf.websocket.api.annotations.WebSocket;
import io.wharf.websocket.core.Frame;

/**
 * The annotated methods of one {@link WebSocket} class, found once per class
 * ({@link #of(Class)} keeps them in a {@link ClassValue}) and bound as method handles of one
 * fixed type per event, so calling them costs no reflection: a method that takes fewer
 * parameters than its event offers has the others dropped. A method that does not fit fails
 * here with an {@link IllegalArgumentException} naming the class, the method and what is wrong.
 *
 * <p>Each handle takes the endpoint (as Object) and the {@link Session} first; the rest:
 * open {@code ()}, text {@code (String)}, text stream {@code (Reader)}, bytes
 * {@code (byte[], int, int)}, buffer {@code (ByteBuffer)}, binary stream {@code (InputStream)},
 * close {@code (int, String)}, error {@code (Throwable)}, frame {@code (Frame)}. Absent
 * methods are null. Immutable, shared by every endpoint of the class, any thread.
 */
record EndpointMethods(WebSocket settings, MethodHandle open, MethodHandle text, MethodHandle textStream,
        MethodHandle bytes, MethodHandle buffer, MethodHandle binaryStream, MethodHandle close,
        MethodHandle error, MethodHandle frame) {

    private static final ClassValue<EndpointMethods> CACHE = new ClassValue<>() {
        @Override
        protected EndpointMethods computeValue(Class<?> type) {
            return scan(type);
        }
    };

    /** @throws IllegalArgumentException for a class without {@link WebSocket} or with a bad method */
    static EndpointMethods of(Class<?> type) {
        return CACHE.get(type);
    }

    /** The event a method serves: its fixed parameters after the Session, and the forms it may take. */
    private record Shape(String event, List<Class<?>> full, List<List<Class<?>>> forms) {
    }

    private static final Shape OPEN = new Shape("@OnWebSocketOpen", List.of(), List.of(List.of()));
    private static final Shape TEXT = new Shape("@OnWebSocketMessage", List.of(String.class), List.of(List.of(String.class)));
    private static final Shape TEXT_STREAM = new Shape("@OnWebSocketMessage", List.of(Reader.class), List.of(List.of(Reader.class)));
    private static final Shape BYTES = new Shape("@OnWebSocketMessage", List.of(byte[].class, int.class, int.class),
        List.of(List.of(byte[].class, int.class, int.class)));
    private static final Shape BUFFER = new Shape("@OnWebSocketMessage", List.of(ByteBuffer.class), List.of(List.of(ByteBuffer.class)));
    private static final Shape BINARY_STREAM = new Shape("@OnWebSocketMessage", List.of(InputStream.class), List.of(List.of(InputStream.class)));
    private static final Shape CLOSE = new Shape("@OnWebSocketClose", List.of(int.class, String.class),
        List.of(List.of(int.class, String.class), List.of()));
    private static final Shape ERROR = new Shape("@OnWebSocketError", List.of(Throwable.class), List.of(List.of(Throwable.class)));
    private static final Shape FRAME = new Shape("@OnWebSocketFrame", List.of(Frame.class), List.of(List.of(Frame.class)));

    private static final List<Shape> MESSAGES = List.of(TEXT, TEXT_STREAM, BYTES, BUFFER, BINARY_STREAM);

    private static EndpointMethods scan(Class<?> type) {
        WebSocket settings = type.getAnnotation(WebSocket.class);
        if (settings == null) {
            throw new IllegalArgumentException(type.getName() + " is neither a WebSocketListener nor annotated @WebSocket");
        }
        MethodHandle[] found = new MethodHandle[9];
        String[] names = new String[9];
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (method.isSynthetic() || method.isBridge() || overridden(type, c, method)) {
                    continue;
                }
                bind(type, method, OnWebSocketOpen.class, List.of(OPEN), 0, found, names);
                bind(type, method, OnWebSocketMessage.class, MESSAGES, 1, found, names);
                bind(type, method, OnWebSocketClose.class, List.of(CLOSE), 6, found, names);
                bind(type, method, OnWebSocketError.class, List.of(ERROR), 7, found, names);
                bind(type, method, OnWebSocketFrame.class, List.of(FRAME), 8, found, names);
            }
        }
        if (found[1] != null && found[2] != null) {
            throw new IllegalArgumentException(type.getName() + ": two text message methods, " + names[1] + " and " + names[2]);
        }
        int binaries = (found[3] != null ? 1 : 0) + (found[4] != null ? 1 : 0) + (found[5] != null ? 1 : 0);
        if (binaries > 1) {
            throw new IllegalArgumentException(type.getName() + ": more than one binary message method: "
                + Arrays.stream(names, 3, 6).filter(n -> n != null).collect(Collectors.joining(", ")));
        }
        return new EndpointMethods(settings, found[0], found[1], found[2], found[3], found[4], found[5], found[6], found[7], found[8]);
    }

    /** @return whether a subclass of {@code declaring} up to {@code type} declares the same method (it is the one to use) */
    private static boolean overridden(Class<?> type, Class<?> declaring, Method method) {
        for (Class<?> c = type; c != declaring; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod(method.getName(), method.getParameterTypes());
                return true;
            } catch (NoSuchMethodException x) {
                // Not here.
            }
        }
        return false;
    }

    /** Binds {@code method} when it carries {@code annotation}, to the slot of the shape among {@code shapes} it fits. */
    private static void bind(Class<?> type, Method method, Class<? extends Annotation> annotation, List<Shape> shapes,
            int firstSlot, MethodHandle[] found, String[] names) {
        if (!method.isAnnotationPresent(annotation)) {
            return;
        }
        String name = type.getName() + "." + method.getName() + Arrays.stream(method.getParameterTypes())
            .map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"));
        String what = "@" + annotation.getSimpleName();
        if (Modifier.isStatic(method.getModifiers())) {
            throw new IllegalArgumentException(name + ": a " + what + " method must not be static");
        }
        if (method.getReturnType() != void.class) {
            throw new IllegalArgumentException(name + ": a " + what + " method must return void, not " + method.getReturnType().getName());
        }
        List<Class<?>> parameters = new ArrayList<>(List.of(method.getParameterTypes()));
        boolean withSession = !parameters.isEmpty() && parameters.get(0) == Session.class;
        if (withSession) {
            parameters.remove(0);
        }
        for (int i = 0; i < shapes.size(); i++) {
            Shape shape = shapes.get(i);
            if (shape.forms().contains(parameters)) {
                int slot = firstSlot + i;
                if (found[slot] != null) {
                    throw new IllegalArgumentException(type.getName() + ": two " + what + " methods of one kind, " + names[slot] + " and " + name);
                }
                found[slot] = handle(name, method, shape, withSession, parameters);
                names[slot] = name;
                return;
            }
        }
        throw new IllegalArgumentException(name + ": a " + what + " method takes " + forms(shapes)
            + " (each optionally after a Session), not " + parameters);
    }

    private static String forms(List<Shape> shapes) {
        return shapes.stream().flatMap(shape -> shape.forms().stream())
            .map(form -> form.stream().map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")")))
            .collect(Collectors.joining(" or "));
    }

    /** @return the method as a handle of the shape's full type: (Object, Session, full...) void */
    private static MethodHandle handle(String name, Method method, Shape shape, boolean withSession, List<Class<?>> parameters) {
        MethodHandle handle;
        try {
            method.setAccessible(true);
            handle = MethodHandles.lookup().unreflect(method);
        } catch (InaccessibleObjectException | IllegalAccessException | SecurityException x) {
            throw new IllegalArgumentException(name + ": not accessible to io.wharf.websocket (make it public in an exported"
                + " package, or open the package to io.wharf.websocket): " + x.getMessage(), x);
        }
        List<Class<?>> given = new ArrayList<>();
        given.add(Object.class);
        if (withSession) {
            given.add(Session.class);
        }
        given.addAll(parameters);
        handle = handle.asType(MethodType.methodType(void.class, given));
        if (!withSession) {
            handle = MethodHandles.dropArguments(handle, 1, Session.class);
        }
        if (parameters.isEmpty() && !shape.full().isEmpty()) {
            handle = MethodHandles.dropArguments(handle, 2, shape.full());
        }
        return handle;
    }
}
