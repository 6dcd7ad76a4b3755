package flows

func Serve() {}
