package io.wharf.webapp.internal;

import java.util.Collection;
import java.util.List;

import jakarta.servlet.descriptor.JspConfigDescriptor;
import jakarta.servlet.descriptor.JspPropertyGroupDescriptor;
import jakarta.servlet.descriptor.TaglibDescriptor;

import io.wharf.webapp.descriptor.JspConfig;
import io.wharf.webapp.descriptor.JspPropertyGroup;

/**
 * A descriptor's {@code <jsp-config>} as the Servlet API's {@link JspConfigDescriptor}, which the
 * context hands to the JSP engine through {@code getJspConfigDescriptor()}. Immutable.
 */
record JspConfigView(JspConfig config) implements JspConfigDescriptor {

    @Override
    public Collection<TaglibDescriptor> getTaglibs() {
        return config.taglibs().stream().<TaglibDescriptor>map(Taglib::new).toList();
    }

    @Override
    public Collection<JspPropertyGroupDescriptor> getJspPropertyGroups() {
        return config.propertyGroups().stream().<JspPropertyGroupDescriptor>map(PropertyGroup::new).toList();
    }

    /** A {@code <taglib>}. */
    private record Taglib(JspConfig.Taglib taglib) implements TaglibDescriptor {
        @Override
        public String getTaglibURI() {
            return taglib.uri();
        }

        @Override
        public String getTaglibLocation() {
            return taglib.location();
        }
    }

    /** A {@code <jsp-property-group>}: each setting by its element name, null when the group does not set it. */
    private record PropertyGroup(JspPropertyGroup group) implements JspPropertyGroupDescriptor {
        private String setting(String element) {
            return group.settings().get(element);
        }

        @Override
        public Collection<String> getUrlPatterns() {
            return List.copyOf(group.urlPatterns());
        }

        @Override
        public String getElIgnored() {
            return setting("el-ignored");
        }

        @Override
        public String getErrorOnELNotFound() {
            return setting("error-on-el-not-found");
        }

        @Override
        public String getPageEncoding() {
            return setting("page-encoding");
        }

        @Override
        public String getScriptingInvalid() {
            return setting("scripting-invalid");
        }

        @Override
        public String getIsXml() {
            return setting("is-xml");
        }

        @Override
        public Collection<String> getIncludePreludes() {
            return List.copyOf(group.includePreludes());
        }

        @Override
        public Collection<String> getIncludeCodas() {
            return List.copyOf(group.includeCodas());
        }

        @Override
        public String getDeferredSyntaxAllowedAsLiteral() {
            return setting("deferred-syntax-allowed-as-literal");
        }

        @Override
        public String getTrimDirectiveWhitespaces() {
            return setting("trim-directive-whitespaces");
        }

        @Override
        public String getDefaultContentType() {
            return setting("default-content-type");
        }

        @Override
        public String getBuffer() {
            return setting("buffer");
        }

        @Override
        public String getErrorOnUndeclaredNamespace() {
            return setting("error-on-undeclared-namespace");
        }
    }
}
