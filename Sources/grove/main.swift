import GroveCLI

await GroveCommand.runMain()
