/**
 * Servlet security (Servlet 6.1 chapter 13): the {@link io.wharf.servlet.security.LoginService}
 * SPI that checks users' credentials and knows their roles, the
 * {@link io.wharf.servlet.security.SecurityConstraint}s that say who may reach which paths by
 * which methods over which transport, and the {@link io.wharf.servlet.security.LoginConfig}
 * that picks BASIC, DIGEST, FORM or CLIENT-CERT login. A {@code ServletContextHandler} enforces
 * them on each request's REQUEST dispatch.
 */
package io.wharf.servlet.security;
