import Glibc

/// Text a widget ships in other languages, with English as the source: each
/// table maps the English text to its translation, `{0}`, `{1}`… standing for
/// what is filled in. The language is the person's, as gettext chooses it
/// (`LC_ALL`, else `LC_MESSAGES`, else `LANG`); a language with no table,
/// and a text a table lacks, stay English.
///
///     let text = Translations(["fr": ["Payment schedule": "Calendrier des versements",
///                                     "Due today: {0}": "À payer aujourd'hui : {0}"]])
///     text("Due today: {0}", "$12.50")   // "À payer aujourd'hui : $12.50" under LANG=fr_CA.UTF-8
///
/// An isolated widget sees the same variables: the host passes `LANG` and
/// `LC_*` to its process.
public struct Translations: Sendable {
    /// The language whose table is used ("fr", or a regional "fr_CA"); nil for English.
    public let language: String?
    private let table: [String: String]

    /// `tables` by language code, `fr` or `fr_CA`; `preferences` in order,
    /// most specific first (the person's locale unless the widget knows better,
    /// such as a merchant's configured locale).
    public init(_ tables: [String: [String: String]], preferences: [String] = Translations.preferences()) {
        let chosen = preferences.first { tables[$0] != nil }
        language = chosen
        table = chosen.flatMap { tables[$0] } ?? [:]
    }

    /// The text in the chosen language, each `{N}` replaced by `arguments[N]`.
    public func callAsFunction(_ english: String, _ arguments: String...) -> String {
        var text = table[english] ?? english
        for (index, argument) in arguments.enumerated() { text = text.replacing("{\(index)}", with: argument) }
        return text
    }

    /// The languages the environment asks for, most specific first:
    /// `fr_CA.UTF-8` gives `["fr_CA", "fr"]`. The first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty decides; `C` and
    /// `POSIX` ask for no translation.
    public static func preferences(environment: [String: String]) -> [String] {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return [] }
        return preferences(locale: value)
    }

    /// The same, from this process's environment.
    public static func preferences() -> [String] {
        var environment: [String: String] = [:]
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { if let value = getenv(name) { environment[name] = String(cString: value) } }
        return preferences(environment: environment)
    }

    /// `language[_TERRITORY][.codeset][@modifier]` as `[language_TERRITORY, language]`.
    public static func preferences(locale: String) -> [String] {
        let name = String(locale.prefix { $0 != "." && $0 != "@" })
        guard name != "C", name != "POSIX", !name.isEmpty else { return [] }
        let language = String(name.prefix { $0 != "_" && $0 != "-" })
        let regional = name.replacing("-", with: "_")
        return regional == language ? [language] : [regional, language]
    }
}
