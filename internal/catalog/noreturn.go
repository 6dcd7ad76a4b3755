package catalog

// NoReturns are functions known never to return whose bodies do not show it
// (the runtime's and syscall's exits are assembly or intrinsics, loggers'
// Fatal methods exit through a hook): internal/noreturn takes them as they
// are, and finds the rest from their bodies.
var NoReturns = newTable(
	"syscall.Exit", "syscall.ExitProcess", "syscall.ExitThread",
	"runtime.Goexit", "runtime.fatalthrow", "runtime.fatalpanic", "runtime.exit",
	"(*go.uber.org/zap.Logger).Fatal", "(*go.uber.org/zap.Logger).Panic",
	"(*go.uber.org/zap.SugaredLogger).Fatal", "(*go.uber.org/zap.SugaredLogger).Fatalw", "(*go.uber.org/zap.SugaredLogger).Fatalf",
	"(*go.uber.org/zap.SugaredLogger).Panic", "(*go.uber.org/zap.SugaredLogger).Panicw", "(*go.uber.org/zap.SugaredLogger).Panicf",
	"(*github.com/sirupsen/logrus.Logger).Exit", "(*github.com/sirupsen/logrus.Logger).Panic",
	"(*github.com/sirupsen/logrus.Logger).Panicf", "(*github.com/sirupsen/logrus.Logger).Panicln",
	"(*github.com/sirupsen/logrus.Entry).Panicf", "(*github.com/sirupsen/logrus.Entry).Panicln",
	"k8s.io/klog.Exit", "k8s.io/klog.ExitDepth", "k8s.io/klog.Exitf", "k8s.io/klog.Exitln",
	"k8s.io/klog.Fatal", "k8s.io/klog.FatalDepth", "k8s.io/klog.Fatalf", "k8s.io/klog.Fatalln",
	"k8s.io/klog/v2.Exit", "k8s.io/klog/v2.ExitDepth", "k8s.io/klog/v2.Exitf", "k8s.io/klog/v2.Exitln",
	"k8s.io/klog/v2.Fatal", "k8s.io/klog/v2.FatalDepth", "k8s.io/klog/v2.Fatalf", "k8s.io/klog/v2.Fatalln",
)

// Returners are functions whose bodies look as if they never return but
// that the compiler replaces with code that does.
var Returners = newTable("internal/abi.EscapeNonString", "hash/maphash.Comparable")
