package dev.layerfold.registry.proxy;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the pull-through cache's upstreams ({@code layerfold.proxy.*}). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProxyProperties.class)
class ProxyConfiguration {
}
