package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The module exports its one package and needs, of Wharf, only the servlet container whose SPI it implements. */
class ModuleDescriptorTest {

    @Test
    void exportsTheLoginServicesAndNeedsOnlyTheServletContainer() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(PasswordFileLoginService.class);
        assertEquals("io.wharf.login", descriptor.name());
        assertEquals(Set.of("io.wharf.login"), ModuleExports.unqualifiedExports(descriptor));
        assertEquals(Set.of("io.wharf.servlet"), ModuleExports.wharfRequires(descriptor));
    }
}
