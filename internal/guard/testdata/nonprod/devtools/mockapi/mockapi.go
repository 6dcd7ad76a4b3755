package mockapi

func Serve() {}
