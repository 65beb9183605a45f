package io.wharf.tests.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static io.wharf.tests.architecture.WharfModules.MAIN_CLASSES;
import static io.wharf.tests.architecture.WharfModules.inModule;
import static io.wharf.tests.architecture.WharfModules.inWharfModuleOtherThan;
import static io.wharf.tests.architecture.WharfModules.moduleOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;

import io.wharf.server.Handler;
import io.wharf.server.handler.context.ContextHandler;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Wharf's layering as rules over the compiled main classes of every module (docs/architecture.md,
 * "Layers"). They live here because wharf-tests is the one module whose test class path holds every
 * main module at once: a rule about server and client, or about one module reaching into another's
 * {@code internal} package, needs both sides in view. A module is what its {@code module-info.java}
 * says ({@link WharfModules}), not a package prefix.
 */
class ArchitectureTest {

    /** The modules the rules must see: if one is missing from the class path, the rules would pass vacuously. */
    private static final Set<String> EXPECTED_MODULES = Set.of(
        "io.wharf.util", "io.wharf.io", "io.wharf.http", "io.wharf.http2", "io.wharf.server", "io.wharf.client",
        "io.wharf.websocket", "io.wharf.websocket.server", "io.wharf.websocket.client", "io.wharf.loadgen", "io.wharf.examples",
        "io.wharf.servlet", "io.wharf.websocket.servlet", "io.wharf.webapp", "io.wharf.jsp", "io.wharf.login");

    /**
     * Modules whose cycle rule is a test of its own below: the server's, which names what its
     * layout is. Every other module, the client included, is checked by {@link #noPackageCycleInsideAModule()}.
     */
    private static final Set<String> MODULES_WITH_KNOWN_CYCLES = Set.of("io.wharf.server");

    /** Modules whose exported signatures are checked ({@link #exportedSignaturesNameOnlyExportedTypes()}). */
    private static final Set<String> MODULES_WITH_CHECKED_SIGNATURES = Set.of("io.wharf.client", "io.wharf.webapp", "io.wharf.login");

    /** How many classes implementing {@link Handler} a handler may have above it: Handler.Abstract and Handler.Wrapper. */
    private static final int MAX_HANDLER_CLASSES_ABOVE = 2;

    /**
     * No handler deeper than an interface plus two abstract levels (issue 16): above a class that
     * implements {@link Handler}, at most {@value #MAX_HANDLER_CLASSES_ABOVE} classes of its
     * superclass chain implement it. A handler that wants another's behaviour wraps it.
     */
    private static final ArchRule HANDLERS_ARE_SHALLOW = classes()
        .that().areAssignableTo(Handler.class).and().areNotInterfaces()
        .should(haveAtMostTwoHandlerClassesAbove())
        .because("a handler is an interface plus two abstract levels at most (Handler.Abstract, Handler.Wrapper);"
            + " a handler that needs another's behaviour wraps it instead of extending it");

    @Test
    void everyModuleIsInView() {
        Set<String> found = WharfModules.wharfModules().stream().map(ModuleDescriptor::name).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(found.containsAll(EXPECTED_MODULES), "the rules see only " + found);
    }

    /** One test per module: ArchUnit reports only some of the cycles of a graph, so each module is checked alone. */
    @TestFactory
    Stream<DynamicTest> noPackageCycleInsideAModule() {
        return WharfModules.wharfModules().stream()
            .map(ModuleDescriptor::name)
            .filter(module -> !MODULES_WITH_KNOWN_CYCLES.contains(module))
            .sorted()
            .map(module -> DynamicTest.dynamicTest(module, () -> assertNoPackageCycleIn(module)));
    }

    /**
     * The server's core ({@code io.wharf.server} with its internal package) names no protocol:
     * HTTP/1.1, HTTP/2 and the PROXY protocol are wings ({@code http1}, {@code http2},
     * {@code proxy}), each exporting its connection factories and keeping its connections in
     * its own internal package, and a connector has no default protocol. A wing that the core
     * named (a default factory, a factory kept in the core that builds a wing's connection)
     * would close a cycle.
     */
    @Test
    void noPackageCycleInsideServer() {
        assertNoPackageCycleIn("io.wharf.server");
    }

    /**
     * In the server only its HTTP/2 wing ({@code io.wharf.server.http2} and its internal package)
     * uses {@code wharf-http2}, which the server therefore requires statically: a server that
     * speaks only HTTP/1.1 runs without it ({@link ModulePathTest#anHttp11ServerRunsWithoutHttp2()}).
     */
    @Test
    void onlyTheServersHttp2WingUsesHttp2() {
        noClasses().that(inModule("io.wharf.server")).and().resideOutsideOfPackage("io.wharf.server.http2..")
            .should().dependOnClassesThat(inModule("io.wharf.http2"))
            .because("a server that speaks only HTTP/1.1 runs without wharf-http2 on its module path")
            .check(MAIN_CLASSES);
    }

    /**
     * In the WebSocket modules only the client's handshake over an HTTP/2 stream
     * ({@code Http2HandshakeConnection}, RFC 8441) uses {@code wharf-http2}, and none requires it
     * but statically: a WebSocket client or server over HTTP/1.1 runs without it
     * ({@link ModulePathTest#aWebSocketClientAndServerTalkWithoutHttp2()}). The server part takes
     * RFC 8441's extended CONNECT through the server's HTTP/2 wing and its {@code ProtocolUpgrade}.
     */
    @Test
    void onlyTheWebSocketClientsHttp2HandshakeUsesHttp2() {
        Set<String> outright = WharfModules.wharfModules().stream()
            .filter(module -> module.name().startsWith("io.wharf.websocket"))
            .filter(module -> module.requires().stream().anyMatch(requires -> requires.name().equals("io.wharf.http2")
                && !requires.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)))
            .map(ModuleDescriptor::name)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), outright, "WebSocket modules that require io.wharf.http2 outright (not static)");
        noClasses().that(inModule("io.wharf.websocket", "io.wharf.websocket.server", "io.wharf.websocket.client"))
            .and().haveNameNotMatching("io\\.wharf\\.websocket\\.client\\.Http2HandshakeConnection(\\$.*)?")
            .should().dependOnClassesThat(inModule("io.wharf.http2"))
            .because("a WebSocket client or server over HTTP/1.1 runs without wharf-http2 on its module path")
            .check(MAIN_CLASSES);
    }

    @Test
    void noHandlerIsDeeperThanAnInterfacePlusTwoAbstractLevels() {
        HANDLERS_ARE_SHALLOW.check(MAIN_CLASSES);
    }

    /**
     * The rule above can fail: it reports {@link TooDeepHandler}, which extends
     * {@link ContextHandler}, and passes {@link ContextHandler} itself, which is at the limit.
     */
    @Test
    void theHandlerDepthRuleReportsATooDeepHandler() {
        AssertionError failure = assertThrows(AssertionError.class,
            () -> HANDLERS_ARE_SHALLOW.check(new ClassFileImporter().importClasses(TooDeepHandler.class)));
        assertTrue(failure.getMessage().contains(TooDeepHandler.class.getName() + " has 3 handler classes above it"),
            failure.getMessage());
        HANDLERS_ARE_SHALLOW.check(new ClassFileImporter().importClasses(ContextHandler.class));
    }

    @Test
    void utilUsesNothingAboveIt() {
        noClasses().that(inModule("io.wharf.util"))
            .should().dependOnClassesThat(inWharfModuleOtherThan("io.wharf.util"))
            .check(MAIN_CLASSES);
    }

    @Test
    void httpIsAPureCodecOnUtil() {
        noClasses().that(inModule("io.wharf.http"))
            .should().dependOnClassesThat(inWharfModuleOtherThan("io.wharf.http", "io.wharf.util"))
            .because("the HTTP codec works on bytes and fields: I/O (io.wharf.io) and everything above stay out of it")
            .check(MAIN_CLASSES);
    }

    @Test
    void serverSideNeverUsesClientSide() {
        noClasses().that(inModule("io.wharf.server", "io.wharf.websocket.server"))
            .should().dependOnClassesThat(inModule("io.wharf.client", "io.wharf.websocket.client"))
            .check(MAIN_CLASSES);
    }

    @Test
    void clientSideNeverUsesServerSide() {
        noClasses().that(inModule("io.wharf.client", "io.wharf.websocket.client"))
            .should().dependOnClassesThat(inModule("io.wharf.server", "io.wharf.websocket.server"))
            .check(MAIN_CLASSES);
    }

    @Test
    void webSocketCoreUsesNeitherServerNorClient() {
        noClasses().that(inModule("io.wharf.websocket"))
            .should().dependOnClassesThat(inModule("io.wharf.server", "io.wharf.client", "io.wharf.websocket.server", "io.wharf.websocket.client"))
            .because("a WebSocket client user must not need the server, nor a server user the client")
            .check(MAIN_CLASSES);
    }

    @Test
    void noModuleUsesAnotherModulesInternals() {
        classes().should(useNoInternalPackageOfAnotherModule()).check(MAIN_CLASSES);
    }

    /**
     * What a module exports names only what it (or another Wharf module) exports: no public or
     * protected signature of a type in an exported package — its supertypes, fields, methods and
     * constructors, with their type arguments and thrown types — names a Wharf type of a package
     * its module does not export (an {@code internal} one). Another module could not implement
     * or call such a signature; the client's transport SPI ({@code io.wharf.client.transport}),
     * which other modules implement, is what this rule was written for. One test per module.
     */
    @TestFactory
    Stream<DynamicTest> exportedSignaturesNameOnlyExportedTypes() {
        return WharfModules.wharfModules().stream()
            .sorted(Comparator.comparing(ModuleDescriptor::name))
            .filter(module -> MODULES_WITH_CHECKED_SIGNATURES.contains(module.name()))
            .map(module -> DynamicTest.dynamicTest(module.name(), () -> assertExportedSignaturesNameOnlyExportedTypes(module)));
    }

    /**
     * No Wharf module requires a Wharf module none of its classes uses: a {@code requires} drags the
     * other module (and what it requires transitively) onto every user's module path.
     */
    @Test
    void noModuleRequiresAWharfModuleItDoesNotUse() {
        TreeMap<String, Set<String>> unused = new TreeMap<>();
        for (ModuleDescriptor module : WharfModules.wharfModules()) {
            Set<String> used = MAIN_CLASSES.stream()
                .filter(type -> moduleOf(type).equals(module.name()))
                .flatMap(type -> type.getDirectDependenciesFromSelf().stream())
                .map(dependency -> moduleOf(dependency.getTargetClass()))
                .collect(Collectors.toSet());
            Set<String> idle = module.requires().stream()
                .map(ModuleDescriptor.Requires::name)
                .filter(name -> name.startsWith("io.wharf.") && !used.contains(name))
                .collect(Collectors.toCollection(TreeSet::new));
            if (!idle.isEmpty()) {
                unused.put(module.name(), idle);
            }
        }
        assertEquals(new TreeMap<>(), unused, "modules that require Wharf modules they do not use");
    }

    /**
     * Checks that the packages of {@code module} form no cycle. A package's {@code internal} sub-package
     * counts as part of it: the module hides it, and the public class whose factory makes the
     * implementation it holds (HttpFields.build() making an ArrayHttpFields that implements HttpFields)
     * is one unit with it. A cycle between two such units is a knot.
     */
    private static void assertNoPackageCycleIn(String module) {
        SlicesRuleDefinition.slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                if (!moduleOf(type).equals(module)) {
                    return SliceIdentifier.ignore();
                }
                String unit = type.getPackageName();
                int internal = (unit + ".").indexOf(".internal.");
                return SliceIdentifier.of(internal < 0 ? unit : unit.substring(0, internal));
            }

            @Override
            public String getDescription() {
                return "the packages of " + module + ", each with its internal sub-package";
            }
        }).should().beFreeOfCycles().check(MAIN_CLASSES);
    }

    private static ArchCondition<JavaClass> haveAtMostTwoHandlerClassesAbove() {
        return new ArchCondition<>("have at most " + MAX_HANDLER_CLASSES_ABOVE + " classes implementing Handler above them") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                List<String> above = type.getAllRawSuperclasses().stream()
                    .filter(superclass -> superclass.isAssignableTo(Handler.class))
                    .map(JavaClass::getName)
                    .toList();
                if (above.size() > MAX_HANDLER_CLASSES_ABOVE) {
                    events.add(SimpleConditionEvent.violated(type,
                        type.getName() + " has " + above.size() + " handler classes above it (nearest first): "
                            + String.join(", ", above)));
                }
            }
        };
    }

    private static void assertExportedSignaturesNameOnlyExportedTypes(ModuleDescriptor module) {
        Map<String, ModuleDescriptor> modules = WharfModules.wharfModules().stream()
            .collect(Collectors.toMap(ModuleDescriptor::name, Function.identity()));
        List<String> leaks = new ArrayList<>();
        for (JavaClass type : MAIN_CLASSES) {
            if (!moduleOf(type).equals(module.name()) || !isExported(module, type.getPackageName()) || !isVisibleOutside(type)) {
                continue;
            }
            Set<JavaClass> named = new TreeSet<>(Comparator.comparing(JavaClass::getName));
            type.getSuperclass().ifPresent(superclass -> named.addAll(superclass.getAllInvolvedRawTypes()));
            type.getInterfaces().forEach(face -> named.addAll(face.getAllInvolvedRawTypes()));
            type.getTypeParameters().forEach(parameter -> named.addAll(parameter.getAllInvolvedRawTypes()));
            for (JavaMember member : type.getMembers()) {
                Set<JavaModifier> modifiers = member.getModifiers();
                boolean visible = modifiers.contains(JavaModifier.PUBLIC)
                    || modifiers.contains(JavaModifier.PROTECTED) && !type.getModifiers().contains(JavaModifier.FINAL);
                if (!visible || modifiers.contains(JavaModifier.SYNTHETIC)) {
                    continue;
                }
                named.addAll(member.getAllInvolvedRawTypes());
                if (member instanceof JavaCodeUnit code) {
                    named.addAll(code.getThrowsClause().getTypes());
                }
            }
            for (JavaClass target : named) {
                ModuleDescriptor owner = modules.get(moduleOf(target));
                if (owner != null && !isExported(owner, target.getPackageName())) {
                    leaks.add(type.getName() + " names " + target.getName() + " (" + owner.name() + " does not export "
                        + target.getPackageName() + ")");
                }
            }
        }
        assertEquals(List.of(), leaks, "public signatures of " + module.name() + "'s exported packages that name unexported types");
    }

    /** @return whether {@code module} exports {@code packageName} to every module */
    private static boolean isExported(ModuleDescriptor module, String packageName) {
        return module.exports().stream().anyMatch(export -> !export.isQualified() && export.source().equals(packageName));
    }

    /** @return whether {@code type} and every class it is nested in are public */
    private static boolean isVisibleOutside(JavaClass type) {
        for (JavaClass current = type; current != null; current = current.getEnclosingClass().orElse(null)) {
            if (!current.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    private static ArchCondition<JavaClass> useNoInternalPackageOfAnotherModule() {
        return new ArchCondition<>("use no internal package of another module") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                String module = moduleOf(type);
                for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass();
                    boolean internal = ("." + target.getPackageName() + ".").contains(".internal.");
                    String owner = moduleOf(target);
                    if (internal && owner.startsWith("io.wharf.") && !owner.equals(module)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()
                            + " (" + module + " uses " + owner + "'s internals)"));
                    }
                }
            }
        };
    }
}
