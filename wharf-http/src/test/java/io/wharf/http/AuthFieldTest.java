package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

/**
 * {@code WWW-Authenticate} and {@code Authorization} as RFC 9110 section 11 writes them: several
 * per field, token68 or parameters, and hostile fields. The client's challenges and the server's
 * credentials both come from here.
 */
class AuthFieldTest {

    private static List<AuthField> parse(String... fields) {
        return AuthField.parse(List.of(fields));
    }

    private static List<String> schemes(List<AuthField> fields) {
        return fields.stream().map(AuthField::scheme).toList();
    }

    @Test
    void oneWithParameters() {
        List<AuthField> fields = parse("Digest realm=\"shop, \\\"inc\\\"\", qop=\"auth,auth-int\",NONCE=abc ,  Stale=TRUE");
        assertEquals(1, fields.size());
        AuthField digest = fields.get(0);
        assertEquals("Digest", digest.scheme());
        assertNull(digest.token68());
        assertEquals(Map.of("realm", "shop, \"inc\"", "qop", "auth,auth-int", "nonce", "abc", "stale", "TRUE"), digest.parameters(),
            "names in lower case, values unquoted");
    }

    @Test
    void severalInOneFieldAndAcrossFields() {
        List<AuthField> fields = parse(
            "Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\"\", Basic realm=\"simple\"",
            "Negotiate, Negotiate a87421000492aa874209af8bc028==, Bearer");
        assertEquals(List.of("Newauth", "Basic", "Negotiate", "Negotiate", "Bearer"), schemes(fields));
        assertEquals(Map.of("realm", "apps", "type", "1", "title", "Login to \"apps\""), fields.get(0).parameters());
        assertEquals("simple", fields.get(1).parameters().get("realm"));
        assertNull(fields.get(2).token68());
        assertEquals("a87421000492aa874209af8bc028==", fields.get(3).token68());
        assertEquals(Map.of(), fields.get(4).parameters());
    }

    @Test
    void credentialsOfAnAuthorizationField() {
        AuthField basic = AuthField.first(List.of("Basic YW5uOnNlY3JldA=="), "basic");
        assertEquals("YW5uOnNlY3JldA==", basic.token68());
        AuthField digest = AuthField.first(List.of("Digest username=\"ann\", uri=\"/a?b=c,d\", nc=00000001, response=\"ab12\""), "DIGEST");
        assertEquals("/a?b=c,d", digest.parameters().get("uri"), "a comma inside a quoted value stays in it");
        assertEquals("00000001", digest.parameters().get("nc"));
        assertNull(AuthField.first(List.of("Bearer xyz"), "Basic"));
    }

    @Test
    void malformedFieldsKeepWhatCameBefore() {
        assertEquals(List.of("Basic"), schemes(parse("Basic realm=\"a\", Digest realm=\"unterminated")));
        assertEquals(0, parse("=oops").size());
        assertEquals(0, parse("").size());
        assertEquals(0, parse("Basic realm=a realm=b").size(), "a stray token after a value: dropped");
        assertEquals(List.of("Basic"), schemes(parse("Basic realm=a, Digest realm=b nonce=c")));
        assertEquals("first", parse("Basic realm=first, realm=second").get(0).parameters().get("realm"), "the first of a repeated name");
    }

    @Test
    void boundsHold() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            many.append("S").append(i).append(", ");
        }
        assertEquals(AuthField.MAX_FIELDS, parse(many.toString()).size());
        StringBuilder parameters = new StringBuilder("Digest ");
        for (int i = 0; i < 100; i++) {
            parameters.append("p").append(i).append("=v, ");
        }
        assertEquals(AuthField.MAX_PARAMETERS, parse(parameters.toString()).get(0).parameters().size());
    }

    @Test
    void randomInputNeverThrows() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String alphabet = "Digest Basic realm=\"\\,= \t abc==/+";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder field = new StringBuilder();
            int length = random.nextInt(50);
            for (int j = 0; j < length; j++) {
                field.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            for (AuthField read : parse(field.toString())) {
                assertFalse(read.scheme().isEmpty());
            }
        }
    }
}
