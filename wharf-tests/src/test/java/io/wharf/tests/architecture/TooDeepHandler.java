package io.wharf.tests.architecture;

import io.wharf.server.handler.context.ContextHandler;

/**
 * Test fixture of {@link ArchitectureTest#theHandlerDepthRuleReportsATooDeepHandler()}: a handler
 * with three handler classes above it ({@link ContextHandler}, {@code Handler.Wrapper},
 * {@code Handler.Abstract}), as a context handler that extends {@link ContextHandler} instead of
 * wrapping one would have. Never instantiated: the rule reads its class file.
 */
class TooDeepHandler extends ContextHandler {

    TooDeepHandler() {
        super("/too-deep");
    }
}
