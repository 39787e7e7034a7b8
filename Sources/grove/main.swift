import GroveCLI

GroveCommand.main()
