package io.wharf.loadgen;

import org.HdrHistogram.Histogram;

/**
 * What a run measured for one resource path: its requests, its errors and its latencies in
 * microseconds (corrected: from when the request should have been sent — for a sub-resource,
 * when its parent arrived). The histogram is the caller's copy.
 *
 * @param path the resource's {@linkplain Resource#name() name}: its path, preceded by its method
 *     when it has one of its own other than GET
 * @param requests measured responses and failures
 * @param errors failures and statuses of 400 or more among them
 * @param latency the corrected latencies of the responses, in microseconds
 */
public record ResourceStatistics(String path, long requests, long errors, Histogram latency) {
}
