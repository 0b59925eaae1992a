package dev.layerfold.server;

import dev.layerfold.registry.auth.AdminAuthorization;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * The management port's own web context (a child of the registry's): only its requests pass the
 * {@link AdminFilter}. Listed in {@code META-INF/spring/...ManagementContextConfiguration.imports}.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementPlaneConfiguration {

    @Bean
    FilterRegistrationBean<AdminFilter> adminFilter(AdminAuthorization authorization, WebEndpointProperties endpoints) {
        FilterRegistrationBean<AdminFilter> registration = new FilterRegistrationBean<>(
                new AdminFilter(authorization, endpoints.getBasePath()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
