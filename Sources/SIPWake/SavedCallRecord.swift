import Forking
import Model

/// What a call last handed to the call record writer: the phase it was
/// saved in and the record itself, so that a version identical to the last
/// one (a call finishing with nothing new since its hang-up, say) is not
/// encoded and written again.
struct SavedCallRecord {
    var phase: ForkPhase?
    var record: CallRecord?
}
