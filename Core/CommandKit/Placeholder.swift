// CommandKit
