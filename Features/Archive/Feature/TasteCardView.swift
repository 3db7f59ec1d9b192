import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Synchronization

/// The taste card: a `Card` of bars (what `moa archive taste` prints; the interactive mode shows the same).
public enum TasteCardView {
    public static func render(_ profile: TasteProfile, theme: Theme = .plain) -> String {
        guard !profile.isEmpty else { return theme.paint(ArchiveScreen.noTickets, .muted) }
        let sections: [(String, [TasteShare])] = [
            ("Top categories", Array(profile.categories.prefix(3))),
            ("Top districts", Array(profile.districts.prefix(3))),
            ("Weekdays", profile.weekdays),
            ("Free vs paid", [profile.free, profile.paid]),
        ]
        let labelWidth = sections.flatMap(\.1).reduce(0) { max($0, $1.name.displayWidth) }
        var lines: [String] = []
        for (title, shares) in sections {
            if !lines.isEmpty { lines.append("") }
            lines.append(theme.paint(title, .heading))
            if shares.isEmpty { lines.append("  " + theme.paint("—", .muted)) }
            for share in shares {
                lines.append(
                    "  " + share.name.padded(toDisplayWidth: labelWidth) + "  " + bar(share.share, theme: theme) + "  "
                        + "\(Int((share.share * 100).rounded()))%".padded(toDisplayWidth: 4, alignment: .right)
                        + theme.paint("  \(share.count) ticket\(share.count == 1 ? "" : "s")", .muted))
            }
        }
        lines.append("")
        let average = profile.averageRating.map { String(format: "%.1f", $0) } ?? "—"
        lines.append(
            theme.paint(
                "Average rating \(average) (\(profile.ratedCount) rated). Each ticket weighs rating/5 (unrated 0.6), halved every 180 days.",
                .muted))
        let title = "Your taste · \(profile.ticketCount) ticket\(profile.ticketCount == 1 ? "" : "s") · as of \(profile.asOf)"
        return Card(title: title, lines: lines).render(theme: theme)
    }

    /// A ProgressBar-style bar of `width` cells for a share in 0…1.
    static func bar(_ share: Double, width: Int = 20, theme: Theme) -> String {
        let filled = min(width, max(0, Int((share * Double(width)).rounded())))
        return theme.paint(String(repeating: theme.glyphs.barFilled, count: filled), .accent)
            + theme.paint(String(repeating: theme.glyphs.barEmpty, count: width - filled), .muted)
    }
}
