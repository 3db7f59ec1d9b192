import Foundation
import NIOSSL

/// TLS in `moa-server` itself (`--tls-cert` and `--tls-key`, PEM files read once at start):
/// TLS 1.2 or later (1.2 with ECDHE and AES-GCM or ChaCha20 only), the certificate chain as given (the server's certificate first, then any
/// intermediates). A certificate or key that cannot be used stops the start with one sentence and
/// exit status 78 — before a port is opened — instead of a server that fails every handshake.
enum ServerTLS {
    static func configuration(certificate: String, key: String) throws(ServerError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw .tlsUnusable("The TLS certificate \(certificate) cannot be read as PEM (\(Self.reason(error, path: certificate)))")
        }
        guard !chain.isEmpty else { throw .tlsUnusable("The TLS certificate file \(certificate) holds no certificate") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw .tlsUnusable("The TLS key \(key) cannot be read as a PEM private key (\(Self.reason(error, path: key)))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        // TLS 1.2 with forward secrecy and an AEAD only (TLS 1.3's suites are all of that kind).
        configuration.cipherSuites = "ECDHE+AESGCM:ECDHE+CHACHA20"
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .tlsUnusable("The TLS key \(key) does not belong to the certificate \(certificate)")
        }
        return configuration
    }

    /// Whether others than the owner may read `path` (a private key should be the owner's alone).
    static func othersCanRead(_ path: String) -> Bool {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int else { return false }
        return mode & 0o044 != 0
    }

    private static func reason(_ error: any Error, path: String) -> String {
        FileManager.default.isReadableFile(atPath: path) ? "not a PEM file of that kind" : "no such readable file"
    }
}
