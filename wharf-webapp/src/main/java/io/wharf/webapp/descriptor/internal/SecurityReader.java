package io.wharf.webapp.descriptor.internal;

import java.util.List;
import java.util.Optional;

import io.wharf.webapp.descriptor.AuthConstraint;
import io.wharf.webapp.descriptor.LoginConfig;
import io.wharf.webapp.descriptor.SecurityConstraint;
import io.wharf.webapp.descriptor.WebResourceCollection;

import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * Reads the declarative security of Servlet 6.1 chapter 13: {@code <security-constraint>} and
 * {@code <login-config>}. Stateless; called by {@link DescriptorReader} on the parsing thread.
 */
final class SecurityReader {

    private SecurityReader() {
    }

    static SecurityConstraint constraint(XmlElement constraint) {
        List<WebResourceCollection> collections = constraint.children("web-resource-collection").stream()
            .map(SecurityReader::collection)
            .toList();
        if (collections.isEmpty()) {
            throw constraint.fail("<security-constraint> has no <web-resource-collection>");
        }
        Optional<AuthConstraint> auth = constraint.child("auth-constraint")
            .map(element -> new AuthConstraint(element.texts("role-name")));
        Optional<TransportGuarantee> guarantee = constraint.child("user-data-constraint")
            .map(element -> element.child("transport-guarantee")
                .orElseThrow(() -> element.fail("<user-data-constraint> has no <transport-guarantee>")))
            .map(element -> Values.constant(element, TransportGuarantee.class));
        return new SecurityConstraint(constraint.optionalText("display-name"), collections, auth, guarantee);
    }

    private static WebResourceCollection collection(XmlElement collection) {
        List<String> methods = collection.texts("http-method");
        List<String> omissions = collection.texts("http-method-omission");
        if (!methods.isEmpty() && !omissions.isEmpty()) {
            throw collection.fail("<web-resource-collection> has both <http-method> and <http-method-omission>");
        }
        List<String> patterns = collection.texts("url-pattern");
        if (patterns.isEmpty()) {
            throw collection.fail("<web-resource-collection> has no <url-pattern>");
        }
        return new WebResourceCollection(collection.optionalText("web-resource-name").orElse(""), patterns, methods, omissions);
    }

    static LoginConfig loginConfig(XmlElement login) {
        Optional<XmlElement> form = login.child("form-login-config");
        return new LoginConfig(login.optionalText("auth-method"), login.optionalText("realm-name"),
            form.map(element -> element.requiredText("form-login-page")),
            form.map(element -> element.requiredText("form-error-page")));
    }
}
