package io.wharf.webapp.descriptor;

import java.util.Optional;

/**
 * {@code <login-config>}.
 *
 * @param authMethod {@code <auth-method>} (BASIC, DIGEST, FORM, CLIENT-CERT or a vendor's name)
 * @param realmName {@code <realm-name>}
 * @param formLoginPage {@code <form-login-page>} of {@code <form-login-config>}
 * @param formErrorPage {@code <form-error-page>} of {@code <form-login-config>}
 */
public record LoginConfig(Optional<String> authMethod, Optional<String> realmName, Optional<String> formLoginPage, Optional<String> formErrorPage) {
}
