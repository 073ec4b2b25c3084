/// The actor that receives the agent's requests. It must run on the agent's
/// SIP loop (its `unownedExecutor` is the loop), so Sofia's callback can enter
/// it synchronously, without a hop and without copying the request.
public protocol SIPRequestHandler: Actor {
    func handle(_ request: IncomingRequest)
}

extension SIPRequestHandler {
    /// Called by the agent from Sofia's callback, on the loop thread.
    nonisolated func deliver(_ request: IncomingRequest) {
        // `IncomingRequest` is not Sendable: it wraps Sofia objects of this
        // thread. It never leaves the thread here: `assumeIsolated` checks we
        // are on the handler's executor (the loop) and runs the body right now.
        nonisolated(unsafe) let request = request
        assumeIsolated { $0.handle(request) }
    }
}
