package cron

func Serve() {}
