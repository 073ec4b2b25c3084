/// A step of the test cluster's set-up that failed, with the tool's output.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
}
