/// What the shopper reads, in French (the SDK's Translations): chosen when
/// the merchant configures fr_CA, or when the person's locale asks for French
/// (`LANG=fr_CA.UTF-8`). Keys are the English text; `{0}`, `{1}` are filled in.
/// French puts a no-break space (U+00A0) before a colon and inside « ».
enum CheckoutFrench {
    static let table: [String: String] = [
        "or 4 interest-free payments of {0}": "ou 4 versements sans intérêts de {0}",
        "or 4 payments of {0}": "ou 4 versements de {0}",
        "Pay in 4": "Payez en 4",
        "Payment schedule": "Calendrier des versements",
        "today": "aujourd'hui",
        "Order total": "Total de la commande",
        "Due today: {0}": "À payer aujourd'hui\u{00A0}: {0}",
        "Order total: {0}": "Total de la commande\u{00A0}: {0}",
        "Order reference: {0}": "Référence de la commande\u{00A0}: {0}",
        "Schedule checksum: {0}": "Somme de contrôle\u{00A0}: {0}",
        "\"{0}\"": "«\u{00A0}{0}\u{00A0}»",
        "250.00": "250,00",
        "1000.00": "1000,00",
        "Enter the order total, such as {0}": "Entrez le total de la commande, par exemple {0}",
        "The amount {0} has spaces around it: enter only the amount, such as {1}":
            "Le montant {0} est entouré d'espaces\u{00A0}: entrez seulement le montant, par exemple {1}",
        "{0} is not an amount: enter digits with at most 2 decimal places, such as {1}":
            "{0} n'est pas un montant\u{00A0}: entrez des chiffres avec au plus 2 décimales, par exemple {1}",
        "{0} has an exponent: write the amount in full, such as {1}": "{0} contient un exposant\u{00A0}: entrez le montant au complet, par exemple {1}",
        "The amount {0} is negative: enter the order total": "Le montant {0} est négatif\u{00A0}: entrez le total de la commande",
        "The amount must be more than zero": "Le montant doit être supérieur à zéro",
        "{0} has more than 2 decimal places: {1} amounts stop at the cent": "{0} a plus de 2 décimales\u{00A0}: les montants en {1} s'arrêtent aux cents",
        "{0} is more than the largest amount accepted, {1}": "{0} dépasse le plus grand montant accepté, {1}",
        "Pay in 4 is available for orders between {0} – {1}": "Le paiement en 4 versements est offert pour les commandes entre {0} et {1}",
        "An order of {0} cannot be split into 4 payments of at least {1}":
            "Une commande de {0} ne peut pas être divisée en 4 versements d'au moins {1}",
    ]
}
