import GroveCLI
