import GroveStore
