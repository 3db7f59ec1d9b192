/// The version `moa --version` prints.
public enum MoaVersion {
    public static let current = "0.1.0"
}
