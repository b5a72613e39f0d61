package io.loopbench.web;

import io.loopbench.engine.spec.Labeled;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;
import org.springframework.core.convert.converter.ConverterFactory;
import org.springframework.format.FormatterRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Query parameters take an enum's JSON label ({@code ?status=succeeded&protocol=udp}), as request bodies do. */
@Configuration(proxyBeanMethods = false)
class LabeledEnumConverters implements WebMvcConfigurer {

    @Override
    public void addFormatters(FormatterRegistry registry) {
        registry.addConverterFactory(new Factory());
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class Factory implements ConverterFactory<String, Enum> {
        @Override
        public <T extends Enum> Converter<String, T> getConverter(Class<T> type) {
            if (!Labeled.class.isAssignableFrom(type)) {
                return text -> (T) Enum.valueOf(type, text.trim());
            }
            return text -> (T) Labeled.parse((Class) type, text.trim());
        }
    }
}
