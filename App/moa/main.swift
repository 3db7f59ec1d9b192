import Foundation
import MoaApp

// Everything moa creates (database, session, outbox) is readable by its owner only.
umask(0o077)
exit(await MoaMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
