import Foundation
import MoaServer

// Everything the server creates (database, outbox) is readable by its owner only.
umask(0o077)
exit(await MoaServerMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
