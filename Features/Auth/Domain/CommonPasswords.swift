/// Passwords of 15 characters or more that appear near the top of public breach corpora, lower-cased.
/// Shorter ones are refused by the length rule already.
enum CommonPasswords {
    static func contains(_ lowered: String) -> Bool { list.contains(lowered) || isSimpleSequence(lowered) }

    /// Keyboard rows and digit runs, whatever their length: "123456789012345", "qwertyuiopasdfgh".
    private static func isSimpleSequence(_ text: String) -> Bool {
        let runs = [
            "1234567890123456789012345678901234567890", "0987654321098765432109876543210987654321",
            "qwertyuiopasdfghjklzxcvbnmqwertyuiopasdfghjklzxcvbnm", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
            "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p", "qazwsxedcrfvtgbyhnujmikolp",
        ]
        return runs.contains { $0.contains(text) }
    }

    private static let list: Set<String> = [
        "passwordpassword", "password1234567", "password12345678", "password123456789", "passwordpassword1",
        "iloveyouiloveyou", "iloveyou1234567", "letmeinletmein1", "welcomewelcome1", "welcome12345678",
        "administrator123", "administrator1234", "adminadminadmin", "changemechangeme", "changeme1234567",
        "trustno1trustno1", "monkeymonkeymonkey", "dragondragondragon", "sunshinesunshine", "princessprincess",
        "football12345678", "baseball12345678", "superman12345678", "batman1234567890", "starwarsstarwars",
        "qwerty123456789", "qwerty1234567890", "qwertyqwertyqwerty", "asdfghjklasdfghjkl", "zxcvbnmzxcvbnm123",
        "1q2w3e4r5t6y7u8i", "1q2w3e4r5t6y7u8i9o0p", "q1w2e3r4t5y6u7i8", "a1b2c3d4e5f6g7h8", "abc123abc123abc123",
        "myspace12345678", "correcthorsebatterystaple", "correct horse battery staple", "thequickbrownfox",
        "thequickbrownfoxjumpsoverthelazydog", "the quick brown fox jumps over the lazy dog", "hellohellohello",
        "password!password!", "p@ssw0rdp@ssw0rd", "p@ssword1234567", "passw0rd1234567", "mypassword12345",
        "mypasswordisgood", "thisismypassword", "secretpassword1", "supersecretpassword", "verysecurepassword",
        "computer12345678", "internet12345678", "whatever12345678", "nopassword12345", "passwordispassword",
        "9876543210987654", "11111111111111111", "00000000000000000", "12121212121212121", "1122334455667788",
        "123123123123123", "123412341234123", "123451234512345", "abcabcabcabcabc", "aaaaaaaaaaaaaaaa",
    ]
}
