greeting = "hello from script"
