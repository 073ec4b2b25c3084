/// Whether the push sink's server is listening yet, and who waits to know its port.
enum PushSinkListening {
    case waiting([CheckedContinuation<Int?, Never>])
    case listening(port: Int?)
    case ended
}
