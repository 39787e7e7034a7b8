import Foundation

/// Mends ArgumentParser's completion scripts where they do not know Grove's default subcommands.
///
/// A command with a default subcommand takes that subcommand's arguments in its place (`grove pause
/// youtube` is `grove pause gate youtube`), but the generated scripts offer only the subcommands'
/// names there: `grove pause <TAB>` offered `gate stats analytics` and never an app id. For each such
/// default whose first argument completes from the store, this adds that completion beside the
/// subcommands, in bash, zsh and fish alike.
enum CompletionScript {
    /// A default subcommand whose first positional argument the parent takes in its place.
    struct DefaultArgument {
        /// The parent command's path (`["pause"]`).
        var parent: [String]
        /// The default subcommand's name (`gate`).
        var child: String
    }

    /// The defaults whose first argument completes from the store.
    static let defaults = [DefaultArgument(parent: ["pause"], child: "gate")]

    /// `script` with every default's first argument offered where its parent's subcommands are.
    /// A script this does not recognise comes back unchanged.
    static func mended(_ script: String) -> String {
        defaults.reduce(script) { script, entry in
            if script.hasPrefix("#compdef") { return zsh(script, entry) }
            if script.contains("complete -c '") { return fish(script, entry) }
            return bash(script, entry)
        }
    }

    private static func ask(_ entry: DefaultArgument) -> String {
        "---completion \((entry.parent + [entry.child]).joined(separator: " ")) -- positional@0"
    }

    private static func bash(_ script: String, _ entry: DefaultArgument) -> String {
        appending(
            "        __grove_add_completions -W \"$(__grove_custom_complete \(ask(entry)) \"${COMP_CWORD}\" "
                + "\"$(__grove_cursor_index_in_current_word)\")\"",
            toLineWith: "        COMPREPLY+=($(compgen -W '", inFunctionOf: entry, in: script)
    }

    private static func zsh(_ script: String, _ entry: DefaultArgument) -> String {
        appending(
            "        __grove_custom_complete \(ask(entry)) \"${current_word_index}\" \"$(__grove_cursor_index_in_current_word)\" && ret=0",
            toLineWith: "        _describe -V subcommand subcommands && ret=0", inFunctionOf: entry, in: script)
    }

    /// `script` with `line` added after the first line holding `marker` in the parent's function
    /// (`_grove_pause()`, where bash and zsh offer its subcommands); unchanged when there is none.
    private static func appending(_ line: String, toLineWith marker: String, inFunctionOf entry: DefaultArgument, in script: String)
        -> String
    {
        let function = "_grove_" + entry.parent.joined(separator: "_") + "() {"
        guard let start = script.range(of: function),
            let found = script.range(of: marker, range: start.upperBound..<script.endIndex),
            let end = script.range(of: "\n", range: found.upperBound..<script.endIndex)
        else { return script }
        var mended = script
        mended.insert(contentsOf: "\n" + line, at: end.lowerBound)
        return mended
    }

    private static func fish(_ script: String, _ entry: DefaultArgument) -> String {
        let path = (["grove"] + entry.parent).joined(separator: " ")
        let line =
            "complete -c 'grove' -n '__grove_should_offer_completions_for_positional \"\(path)\" -eq 1' "
            + "-fka '(__grove_custom_completion \(ask(entry)) (count (__grove_tokens -pc)) (__grove_tokens -tC))'"
        return script.hasSuffix("\n") ? script + line + "\n" : script + "\n" + line + "\n"
    }
}
