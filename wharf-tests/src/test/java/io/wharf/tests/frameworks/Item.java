package io.wharf.tests.frameworks;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * An item of the frameworks' test shops, as JSON both ways: Spring MVC reads and writes it with
 * Jackson 3, Jersey with Jackson 2. Spring validates it (Bean Validation, Hibernate Validator).
 */
public record Item(
    long id,
    @NotBlank(message = "must not be blank") @Size(max = 20, message = "at most 20 characters") String name,
    @Min(value = 0, message = "must not be negative") int price) {
}
