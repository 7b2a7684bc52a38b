// Nothing at all: section 9 imports it as the floor of its import measurement (Node's ES module loader starting up).
export {};
