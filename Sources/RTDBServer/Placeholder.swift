import RTDBCore
import GRDB
import Hummingbird
import HummingbirdWebSocket
