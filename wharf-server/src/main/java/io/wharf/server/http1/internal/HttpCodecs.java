package io.wharf.server.http1.internal;

import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpParser;
import io.wharf.server.HttpConfiguration;
import io.wharf.util.concurrent.StripedSlotStack;

/**
 * The idle {@link HttpCodec}s of the connections one {@code HttpConnectionFactory} makes, and
 * the settings they were made with. A connection borrows a codec when a request starts to
 * arrive and gives it back when it is idle again, so ten thousand idle keep-alive
 * connections share a few codecs instead of holding one each.
 *
 * <p>Any thread may lend and take back; the idle codecs sit in a lock-free, bounded stack
 * ({@value #CAPACITY} at most, each about 0.7 KiB of heap and 1 KiB of direct memory). When
 * it is empty a new codec is made; when it is full a returned codec is left to the garbage
 * collector. The factory makes a new {@code HttpCodecs} when its configuration's parser
 * limits, compliance mode or generator options change, so a codec always parses with the
 * settings of the connection that borrowed it.
 */
public final class HttpCodecs {

    /** The most idle codecs kept: more than the requests a busy server has under way at once. */
    static final int CAPACITY = 1024;

    private final HttpConfiguration configuration;
    private final HttpParser.Limits limits;
    private final HttpCompliance compliance;
    private final HttpGenerator.Options generatorOptions;
    private final StripedSlotStack<HttpCodec> idle = new StripedSlotStack<>(CAPACITY);

    public HttpCodecs(HttpConfiguration configuration, HttpGenerator.Options generatorOptions) {
        this.configuration = configuration;
        this.limits = configuration.toParserLimits();
        this.compliance = configuration.getHttpCompliance();
        this.generatorOptions = generatorOptions;
    }

    /** @return whether codecs made now from {@code configuration} and {@code options} would be like these */
    public boolean matches(HttpConfiguration configuration, HttpGenerator.Options options) {
        return this.configuration == configuration && generatorOptions == options
                && compliance == configuration.getHttpCompliance() && limits.equals(configuration.toParserLimits());
    }

    /**
     * @return an idle codec, or a new one, now owned by {@code owner}, learning into {@code memory}
     *     and parsing request fields into {@code fields}
     */
    HttpCodec lend(HttpConnection owner, HttpParser.FieldMemory memory, io.wharf.http.HttpFields.Mutable fields) {
        HttpCodec codec = idle.pop();
        if (codec == null) {
            codec = new HttpCodec(this);
        }
        codec.lend(owner, memory, fields);
        return codec;
    }

    /** Takes back a codec whose owner is done with it ({@link HttpCodec#isIdle()}). */
    void giveBack(HttpCodec codec) {
        codec.free();
        idle.push(codec);
    }

    /** @return the number of idle codecs held now */
    public int idleCount() {
        return idle.size();
    }

    HttpConfiguration configuration() {
        return configuration;
    }

    HttpParser.Limits limits() {
        return limits;
    }

    HttpCompliance compliance() {
        return compliance;
    }

    public HttpGenerator.Options generatorOptions() {
        return generatorOptions;
    }
}
