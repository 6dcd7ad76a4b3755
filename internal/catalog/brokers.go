package catalog

import "strings"

// Message brokers and coordination services. Their clients hand each
// request to a connection goroutine, over a channel or through a buffer
// that goroutine flushes (NATS's flusher, sarama's broker loop, amqp091's
// frame writer, go-zookeeper's send loop, paho's outbound queue), so no
// static path leads from the call to net, and netio cannot see that the
// caller waits on a dependency. The rows say it: one table per library,
// for each client type its requests, the methods that wait for the
// broker's answer (a request's reply, a publish's acknowledgement, a
// fetch, a flush's round trip) or write to its socket themselves
// (amqp091's frames). A send that only appends to a buffer the
// connection's goroutine writes later returns before anything leaves the
// process and is no wait: core NATS's Publish, Subscribe and message
// acknowledgements, JetStream's PublishAsync, paho's Publish and Connect
// until their token is waited on, redigo's Send, franz-go's Produce. Nor
// are a client type's methods that read its own memory (a subscription's
// Pending, a message's Metadata, a connection's LastError or IsConnected),
// even where they return an error. And a method the library builds on
// another row (JetStream on NATS's requests, Flush on FlushTimeout) is no
// row of its own: netio follows it there, and the waits analysis sees the
// deadline the library sets on the way (JetStream's default wait).
var brokerRequests = map[string][]string{
	// nats.go: the core connection's requests and reads, which wait on a
	// channel its reader goroutine fills. JetStream's contexts, managers,
	// key-value and object stores, a pull subscription's Fetch and a
	// message's AckSync are built on these in nats.go itself (netio
	// follows them there, and sees the deadline each sets: JetStream's
	// default wait), and Flush is FlushTimeout with ten seconds.
	"(*github.com/nats-io/nats.go.Conn)": {
		"Request", "RequestMsg", "RequestWithContext", "RequestMsgWithContext", "FlushTimeout", "FlushWithContext",
	},
	"(*github.com/nats-io/nats.go.Subscription)": {"NextMsg", "NextMsgWithContext"},
	// nats.go/jetstream: a consumer's message iterator waits on the
	// channel its pull goroutine fills, with no deadline of its own.
	"(github.com/nats-io/nats.go/jetstream.MessagesContext)": {"Next"},

	// sarama (IBM's, and Shopify's before the move: moduleAliases).
	"(github.com/IBM/sarama.SyncProducer)":  append([]string{"SendMessage", "SendMessages"}, saramaTxn...),
	"(github.com/IBM/sarama.AsyncProducer)": saramaTxn,
	"(github.com/IBM/sarama.ConsumerGroup)": {"Consume"},
	"(github.com/IBM/sarama.Consumer)":      {"ConsumePartition", "Partitions", "Topics"},
	"(github.com/IBM/sarama.Client)": {
		"Controller", "RefreshController", "Broker", "Topics", "Partitions", "WritablePartitions", "Leader",
		"LeaderAndEpoch", "Replicas", "InSyncReplicas", "OfflineReplicas", "RefreshBrokers", "RefreshMetadata",
		"GetOffset", "Coordinator", "RefreshCoordinator", "TransactionCoordinator",
		"RefreshTransactionCoordinator", "InitProducerID",
	},
	"(github.com/IBM/sarama.ClusterAdmin)": {
		"CreateTopic", "ListTopics", "DescribeTopics", "DeleteTopic", "CreatePartitions",
		"AlterPartitionReassignments", "ListPartitionReassignments", "DeleteRecords", "DescribeConfig",
		"DescribeConfigs", "AlterConfig", "IncrementalAlterConfig", "CreateACL", "CreateACLs", "ListAcls",
		"DeleteACL", "ElectLeaders", "ListConsumerGroups", "DescribeConsumerGroups",
		"ListConsumerGroupOffsets", "ListConsumerGroupOffsetsBatch", "DeleteConsumerGroupOffset",
		"DeleteConsumerGroup", "DescribeCluster", "DescribeLogDirs", "DescribeUserScramCredentials",
		"DeleteUserScramCredentials", "UpsertUserScramCredentials", "DescribeClientQuotas",
		"AlterClientQuotas", "Controller", "Coordinator", "RemoveMemberFromConsumerGroup",
		"AlterConsumerGroupOffsets", "ListOffsets", "UpdateFeatures",
	},

	// RabbitMQ: amqp091-go (and streadway/amqp, its ancestor:
	// moduleAliases). Every channel method is a frame to the broker, most
	// wait for its answer; Close gives the channel back.
	"(*github.com/rabbitmq/amqp091-go.Channel)": {
		"Publish", "PublishWithContext", "PublishWithDeferredConfirm", "PublishWithDeferredConfirmWithContext",
		"Consume", "ConsumeWithContext", "Get", "Qos", "Confirm", "Flow", "Recover", "Cancel",
		"Ack", "Nack", "Reject", "Tx", "TxCommit", "TxRollback",
		"ExchangeDeclare", "ExchangeDeclarePassive", "ExchangeDelete", "ExchangeBind", "ExchangeUnbind",
		"QueueDeclare", "QueueDeclarePassive", "QueueInspect", "QueueBind", "QueueUnbind", "QueuePurge",
		"QueueDelete",
	},
	"(*github.com/rabbitmq/amqp091-go.Connection)":           {"Channel", "UpdateSecret"},
	"(github.com/rabbitmq/amqp091-go.Delivery)":              {"Ack", "Nack", "Reject"},
	"(*github.com/rabbitmq/amqp091-go.DeferredConfirmation)": {"Wait", "WaitContext"},

	// ZooKeeper (go-zookeeper/zk, and samuel/go-zookeeper before the
	// move: moduleAliases).
	"(*github.com/go-zookeeper/zk.Conn)": {
		"Get", "GetW", "Set", "Create", "CreateContainer", "CreateTTL", "CreateProtectedEphemeralSequential",
		"Delete", "Exists", "ExistsW", "Children", "ChildrenW", "GetACL", "SetACL", "Multi", "Sync", "AddAuth",
		"Reconfig", "IncrementalReconfig",
	},
	"(*github.com/go-zookeeper/zk.Lock)": {"Lock", "LockWithData", "Unlock"},

	// redigo: a connection's commands (Send only buffers one; the pool's
	// Get only borrows a connection).
	"(github.com/gomodule/redigo/redis.Conn)":            {"Do", "Flush", "Receive"},
	"(github.com/gomodule/redigo/redis.ConnWithContext)": {"DoContext", "ReceiveContext"},
	"(github.com/gomodule/redigo/redis.ConnWithTimeout)": {"DoWithTimeout", "ReceiveWithTimeout"},
	"(github.com/gomodule/redigo/redis.PubSubConn)": {
		"Subscribe", "PSubscribe", "Unsubscribe", "PUnsubscribe", "Ping", "Receive", "ReceiveWithTimeout",
		"ReceiveContext",
	},
	"(*github.com/gomodule/redigo/redis.Script)": {"Do", "DoContext", "Load"},

	// MQTT (paho): a request returns a token at once; waiting on it is
	// the wait.
	"(github.com/eclipse/paho.mqtt.golang.Token)": {"Wait", "WaitTimeout"},

	// Kafka: franz-go's client (kadm's admin calls take a context:
	// ServiceClientPackages) and segmentio's kafka-go.
	"(*github.com/twmb/franz-go/pkg/kgo.Client)": {
		"ProduceSync", "Flush", "PollFetches", "PollRecords", "Ping", "Request",
		"RequestCachedMetadata", "CommitRecords", "CommitUncommittedOffsets", "CommitMarkedOffsets",
		"EndTransaction", "EndAndBeginTransaction", "LeaveGroupContext", "ProducerID",
		"EnsureProduceConnectionIsOpen",
	},
	"(*github.com/segmentio/kafka-go.Writer)": {"WriteMessages"},
	"(*github.com/segmentio/kafka-go.Reader)": {"ReadMessage", "FetchMessage", "CommitMessages", "ReadLag", "SetOffsetAt"},
	"(*github.com/segmentio/kafka-go.Conn)": {
		"ReadMessage", "ReadBatch", "ReadBatchWith", "ReadPartitions", "ReadFirstOffset", "ReadLastOffset",
		"ReadOffset", "ReadOffsets", "WriteMessages", "WriteCompressedMessages", "WriteCompressedMessagesAt",
		"CreateTopics", "DeleteTopics", "Brokers", "Controller", "ApiVersions",
	},
	"(*github.com/segmentio/kafka-go.Dialer)": {
		"Dial", "DialContext", "DialLeader", "DialPartition", "LookupLeader", "LookupPartition", "LookupPartitions",
	},
}

var saramaTxn = []string{
	"BeginTxn", "CommitTxn", "AbortTxn", "AddOffsetsToTxn", "AddOffsetsToTxnWithGroupMetadata",
	"AddMessageToTxn", "AddMessageToTxnWithGroupMetadata",
}

// brokerConnects are the functions that open a connection to a broker or
// a coordination service and wait for it.
var brokerConnects = []string{
	"github.com/nats-io/nats.go.Connect", "(github.com/nats-io/nats.go.Options).Connect",
	"github.com/IBM/sarama.NewClient", "github.com/IBM/sarama.NewSyncProducer",
	"github.com/IBM/sarama.NewAsyncProducer", "github.com/IBM/sarama.NewConsumer",
	"github.com/IBM/sarama.NewConsumerGroup", "github.com/IBM/sarama.NewClusterAdmin",
	"github.com/rabbitmq/amqp091-go.Dial", "github.com/rabbitmq/amqp091-go.DialConfig",
	"github.com/rabbitmq/amqp091-go.DialTLS", "github.com/rabbitmq/amqp091-go.DialTLS_ExternalAuth",
	"github.com/go-zookeeper/zk.Connect", "github.com/go-zookeeper/zk.ConnectWithDialer",
	"github.com/gomodule/redigo/redis.Dial", "github.com/gomodule/redigo/redis.DialContext",
	"github.com/gomodule/redigo/redis.DialURL", "github.com/gomodule/redigo/redis.DialURLContext",
	"github.com/segmentio/kafka-go.Dial", "github.com/segmentio/kafka-go.DialContext",
	"github.com/segmentio/kafka-go.DialLeader", "github.com/segmentio/kafka-go.DialPartition",
}

// brokerNouns name, for messages, the dependency a package's calls wait
// on (by path prefix).
var brokerNouns = []struct{ prefix, noun string }{
	{"github.com/nats-io/nats.go", "NATS"},
	{"github.com/IBM/sarama", "Kafka"}, {"github.com/Shopify/sarama", "Kafka"},
	{"github.com/twmb/franz-go/", "Kafka"}, {"github.com/segmentio/kafka-go", "Kafka"},
	{"github.com/rabbitmq/amqp091-go", "RabbitMQ"}, {"github.com/streadway/amqp", "RabbitMQ"},
	{"github.com/go-zookeeper/zk", "ZooKeeper"}, {"github.com/samuel/go-zookeeper/", "ZooKeeper"},
	{"github.com/gomodule/redigo/", "Redis client"},
	{"github.com/eclipse/paho.mqtt.golang", "MQTT broker"},
	{"github.com/Azure/azure-service-bus-go", "Service Bus"}, {"github.com/Azure/azure-event-hubs-go/", "Event Hubs"},
	{"github.com/Azure/go-amqp", "AMQP broker"}, {"pack.ag/amqp", "AMQP broker"},
	{"go.etcd.io/etcd/client/v3", "etcd"},
}

// AwaitedTokens are the types a broker's request returns at once, for
// the caller to wait on (paho's Token): the request's outcome is read from
// the token after the wait (token.Wait(); token.Error()), so a request
// whose token is waited on is a network call, and a failure read from the
// token is the request's.
var AwaitedTokens = []string{
	"github.com/eclipse/paho.mqtt.golang.Token",
}

// BrokerNoun names the broker or coordination service a call of a
// function of package path waits on, or "" when the package is none of
// the catalogue's.
func BrokerNoun(path string) string {
	for _, b := range brokerNouns {
		if strings.HasPrefix(path, b.prefix) {
			return b.noun
		}
	}
	return ""
}

func init() {
	keys := append([]string(nil), brokerConnects...)
	for recv, methods := range brokerRequests {
		for _, m := range methods {
			keys = append(keys, recv+"."+m)
		}
	}
	NetworkCalls.Add(keys...)
}
