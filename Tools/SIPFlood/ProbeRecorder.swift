import SIPAttackSupport
import Synchronization

/// The probe's samples and the target's memory, written by the probe's
/// thread and read at the end. Sendable through its mutex.
public final class ProbeRecorder: Sendable {
    private struct Record {
        var samples: [ProbeSample] = []
        var memory = MemoryTrack()
    }

    private let record = Mutex(Record())

    public init() {}

    func add(_ sample: ProbeSample) {
        record.withLock { $0.samples.append(sample) }
    }

    public func recordMemory(_ bytes: Int?) {
        record.withLock { $0.memory.record(bytes) }
    }

    public var samples: [ProbeSample] { record.withLock { $0.samples } }

    public var memory: MemoryTrack { record.withLock { $0.memory } }
}
