/**
 * Benchmarks. JMH micro-benchmarks are classes named {@code *Benchmark}, run with
 * {@code ./wharf bench NAME} where NAME is a JMH include pattern. Every JMH benchmark
 * uses one fork and fixed warm-up and measurement settings so that runs compare; the peer
 * (Jetty 12.1, the JDK) is measured in the same run, and {@code docs/benchmarks.md} records
 * the ratio with the command that reproduces it.
 */
package io.wharf.bench;
