import Model
import Testing

@Suite struct LatencyHistogramTests {
    @Test func percentilesAreExactBelowTenMillisecondsAndWithinABucketAbove() {
        let histogram = LatencyHistogram()
        for micros in 1...98 { histogram.record(.microseconds(micros)) }
        histogram.record(.microseconds(25_049))
        histogram.record(.milliseconds(400))
        #expect(histogram.count == 100)
        #expect(histogram.percentile(0.5) == 50)
        #expect(histogram.percentile(0.98) == 98)
        // A tail past 10 ms keeps its value, to 100 µs.
        #expect(histogram.percentile(0.99) == 25_000)
        #expect(histogram.percentile(1) == 400_000)
        #expect(histogram.summary.hasSuffix("max=400000us"))
    }

    @Test func pastOneSecondIsTheMaximum() {
        let histogram = LatencyHistogram()
        histogram.record(.seconds(3))
        histogram.record(.microseconds(-5))
        #expect(histogram.percentile(0.5) == 0)
        #expect(histogram.percentile(1) == 3_000_000)
    }
}
