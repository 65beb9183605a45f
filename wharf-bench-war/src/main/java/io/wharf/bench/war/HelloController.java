package io.wharf.bench.war;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.springframework.http.MediaType;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /hello}: {@code {"message":"Hello, World!"}}, written by Jackson; {@code ?name=X}
 * greets X instead, checked by Bean Validation (1 to 64 characters, else 400). The deploy macro
 * run asks for {@code /hello} and waits for exactly that body.
 */
@RestController
@Validated
public class HelloController {

    /** The answer to the run's request. */
    public record Greeting(String message) {
    }

    @GetMapping(path = "/hello", produces = MediaType.APPLICATION_JSON_VALUE)
    public Greeting hello(@RequestParam(name = "name", defaultValue = "World") @NotBlank @Size(max = 64) String name) {
        return new Greeting("Hello, " + name + "!");
    }
}
