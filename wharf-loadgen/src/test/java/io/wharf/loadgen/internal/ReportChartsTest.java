package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReportChartsTest {

    @Test
    void labelsTheDistributionsAxisWithPercentiles() {
        assertEquals("0%", ReportCharts.percentileLabel(0));
        assertEquals("90%", ReportCharts.percentileLabel(1));
        assertEquals("99%", ReportCharts.percentileLabel(2));
        assertEquals("99.9%", ReportCharts.percentileLabel(3));
        assertEquals("99.999%", ReportCharts.percentileLabel(5));
        assertEquals("", ReportCharts.percentileLabel(2.5));
        assertEquals("", ReportCharts.percentileLabel(-1));
    }
}
