import GroveCLI

GroveCommand.runMain()
