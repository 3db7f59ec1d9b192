// SharedKit
