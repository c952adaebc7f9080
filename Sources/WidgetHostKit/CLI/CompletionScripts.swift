
/// `widget-host completion bash|zsh|fish`: a completion script made from the
/// command declarations, so a shell offers exactly what the parser accepts.
/// Plugin names come at completion time from `widget-host __plugin-names`.
struct CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]
    /// The hidden command that prints the plugin names to complete, one a line.
    static let pluginNamesCommand = "__plugin-names"
    /// The hidden command that prints the settings a plugin declares, one a line.
    static let settingKeysCommand = "__setting-keys"

    let commands: [Command]
    /// What `widget-host` takes with no command (the home screen).
    let homeOptions: [Option]

    func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    private func words(_ completion: Completion) -> [String] {
        switch completion {
        case let .words(words): words
        case .helpPage: commands.map(\.name) + HelpPages.topics.map(\.name)
        default: []
        }
    }

    private static let help = Option.flag("--help", "show this help")

    // MARK: bash

    var bash: String {
        var script = """
        # bash completion for widget-host; made by `widget-host completion bash`.
        _widget_host_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }
        _widget_host_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }
        _widget_host_directories() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); }
        _widget_host_plugins() { _widget_host_words "$(widget-host \(Self.pluginNamesCommand) 2>/dev/null)"; }
        _widget_host_settings() { _widget_host_words "$(widget-host \(Self.settingKeysCommand) "$prev" 2>/dev/null)"; }
        _widget_host_plugins_or_files() {
            _widget_host_files
            local plugins
            mapfile -t plugins < <(compgen -W "$(widget-host \(Self.pluginNamesCommand) 2>/dev/null)" -- "$cur")
            COMPREPLY+=("${plugins[@]}")
        }
        # The number of operands before the word being completed, from word $1 on;
        # $2 lists the options that take a value (so their values are no operands).
        _widget_host_operand() {
            local i=$1 count=0
            while ((i < COMP_CWORD)); do
                local word=${COMP_WORDS[i]}
                if [[ $word == -* ]]; then
                    [[ " $2 " == *" $word "* && ${COMP_WORDS[i+1]} != "=" ]] && ((i++))
                    [[ ${COMP_WORDS[i+1]} == "=" ]] && ((i += 2))
                elif [[ $word != "=" ]]; then
                    ((count++))
                fi
                ((i++))
            done
            echo "$count"
        }

        """
        for (name, options, operands) in [("", homeOptions, [Operand]())] + commands.map({ ($0.name, $0.options, $0.operands) }) {
            script += bashFunction(name, options: options, operands: operands)
        }
        script += """
        _widget_host() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            # --option=value arrives as three words: --option, =, value.
            if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
            if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
                _widget_host_words "\(commands.map(\.name).joined(separator: " "))"
                return
            fi
            case ${COMP_WORDS[1]} in
        \(commands.map { "        \($0.name)) _widget_host_command_\(bashName($0.name)) ;;" }.joined(separator: "\n"))
                *) _widget_host_command_ ;;
            esac
        }
        complete -F _widget_host widget-host

        """
        return script
    }

    private func bashName(_ name: String) -> String { name.replacing("-", with: "_") }

    private func bashFunction(_ name: String, options: [Option], operands: [Operand]) -> String {
        let all = options + [Self.help]
        let valued = options.filter { $0.value != nil }
        var lines = ["_widget_host_command_\(bashName(name))() {", "    case $prev in"]
        for option in valued {
            lines.append("        \(option.name)) \(bashAction(option.completion) ?? ":"); return ;;")
        }
        lines.append("    esac")
        lines.append("    if [[ $cur == -* ]]; then _widget_host_words \"\(all.map(\.name).joined(separator: " "))\"; return; fi")
        let cases = operands.enumerated().compactMap { index, operand in
            bashAction(operand.effectiveCompletion).map { "        \(index)) \($0) ;;" }
        }
        if !cases.isEmpty {
            let first = name.isEmpty ? 1 : 2
            lines.append("    case $(_widget_host_operand \(first) \"\(valued.map(\.name).joined(separator: " "))\") in")
            lines += cases
            lines.append("    esac")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The shell code that fills COMPREPLY, or nil for free text.
    private func bashAction(_ completion: Completion) -> String? {
        switch completion {
        case .nothing: nil
        case .file: "_widget_host_files"
        case .directory: "_widget_host_directories"
        case .plugin: "_widget_host_plugins"
        case .pluginOrFile: "_widget_host_plugins_or_files"
        case .setting: "_widget_host_settings"
        case .helpPage, .words: "_widget_host_words \"\(words(completion).joined(separator: " "))\""
        }
    }

    // MARK: zsh

    var zsh: String {
        let described = commands.map { "        " + zshQuote("\($0.name.replacing(":", with: "\\:")):\($0.summary)") }
        let cases = commands.map {
            "        \($0.name)) shift words; (( CURRENT-- )); _arguments -s \\\n" + zshArguments($0.options, $0.operands) + " ;;"
        }
        return """
        #compdef widget-host
        # zsh completion for widget-host; made by `widget-host completion zsh`.
        _widget_host_plugins() {
            local -a names
            names=(${(f)"$(widget-host \(Self.pluginNamesCommand) 2>/dev/null)"})
            compadd -a names
        }
        _widget_host_plugins_or_files() {
            _alternative 'plugins:plugin:_widget_host_plugins' 'files:file:_files'
        }
        _widget_host_settings() {
            local -a keys
            keys=(${(f)"$(widget-host \(Self.settingKeysCommand) ${words[CURRENT-1]} 2>/dev/null)"})
            compadd -a keys
        }
        _widget_host() {
            if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
                local -a commands
                commands=(
        \(described.joined(separator: "\n"))
                )
                _describe -t commands 'widget-host command' commands
                return
            fi
            case $words[2] in
        \(cases.joined(separator: "\n"))
                *) _arguments -s \\
        \(zshArguments(homeOptions, [])) ;;
            esac
        }
        _widget_host "$@"

        """
    }

    private func zshArguments(_ options: [Option], _ operands: [Operand]) -> String {
        var specs = (options + [Self.help]).map { option -> String in
            let described = (option.repeatable ? "*" : "") + option.name + (option.value == nil ? "" : "=") + "[\(zshEscape(option.help))]"
            guard let value = option.value else { return zshQuote(described) }
            return zshQuote(described + ":\(zshEscape(value)):\(zshAction(option.completion))")
        }
        for (index, operand) in operands.enumerated() {
            specs.append(zshQuote("\(index + 1):\(operand.optional ? ":" : "")\(zshEscape(operand.name)):\(zshAction(operand.effectiveCompletion))"))
        }
        return specs.map { "            " + $0 }.joined(separator: " \\\n")
    }

    private func zshAction(_ completion: Completion) -> String {
        switch completion {
        case .nothing: " "
        case .file: "_files"
        case .directory: "_files -/"
        case .plugin: "_widget_host_plugins"
        case .pluginOrFile: "_widget_host_plugins_or_files"
        case .setting: "_widget_host_settings"
        case .helpPage, .words: "(\(words(completion).joined(separator: " ")))"
        }
    }

    /// Brackets and colons separate the parts of an _arguments spec.
    private func zshEscape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "[]:\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private func zshQuote(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }

    // MARK: fish

    var fish: String {
        var lines = [
            "# fish completion for widget-host; made by `widget-host completion fish`.",
            "function __widget_host_plugins",
            "    widget-host \(Self.pluginNamesCommand) 2>/dev/null",
            "end",
            "function __widget_host_settings",
            "    widget-host \(Self.settingKeysCommand) (commandline -opc)[-1] 2>/dev/null",
            "end",
            "# True when the command being completed is widget-host $argv[1].",
            "function __widget_host_command",
            "    set -l words (commandline -opc)",
            "    test (count $words) -ge 2; and test \"$words[2]\" = \"$argv[1]\"",
            "end",
            "complete -c widget-host -f",
        ]
        for command in commands {
            lines.append("complete -c widget-host -n __fish_use_subcommand -a \(command.name) -d \(fishQuote(command.summary))")
        }
        lines += fishOptions(homeOptions, condition: "__fish_use_subcommand")
        for command in commands {
            let condition = "__widget_host_command \(command.name)"
            lines += fishOptions(command.options + [Self.help], condition: condition)
            for completion in Set(command.operands.map { fishArguments($0.effectiveCompletion) }) where !completion.isEmpty {
                lines.append("complete -c widget-host -n \(fishQuote(condition)) \(completion)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func fishOptions(_ options: [Option], condition: String) -> [String] {
        options.map { option in
            let name = option.name.hasPrefix("--") ? "-l \(option.name.dropFirst(2))" : "-s \(option.name.dropFirst())"
            let value = option.value == nil ? "" : " -r " + fishArguments(option.completion)
            return "complete -c widget-host -n \(fishQuote(condition)) \(name)\(value) -d \(fishQuote(option.help))"
        }
    }

    private func fishArguments(_ completion: Completion) -> String {
        switch completion {
        case .nothing: ""
        case .file: "-F"
        case .directory: "-a '(__fish_complete_directories)'"
        case .plugin: "-a '(__widget_host_plugins)'"
        case .pluginOrFile: "-F -a '(__widget_host_plugins)'"
        case .setting: "-a '(__widget_host_settings)'"
        case .helpPage, .words: "-a \(fishQuote(words(completion).joined(separator: " ")))"
        }
    }

    private func fishQuote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
