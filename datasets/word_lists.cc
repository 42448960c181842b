#include "datasets/word_lists.h"

namespace kvbench::datasets::words {

namespace {

using std::string_view_literals::operator""sv;

constexpr std::string_view kHostNameWords[] = {
    "acme"sv,    "alpine"sv,     "amber"sv,      "anchor"sv,  "apex"sv,      "arbor"sv,
    "arctic"sv,  "atlas"sv,      "aurora"sv,     "beacon"sv,  "birch"sv,     "bluebird"sv,
    "boulder"sv, "bright"sv,     "brook"sv,      "cactus"sv,  "canyon"sv,    "cascade"sv,
    "cedar"sv,   "citadel"sv,    "clearwater"sv, "cobalt"sv,  "comet"sv,     "copper"sv,
    "coral"sv,   "crest"sv,      "crystal"sv,    "cypress"sv, "delta"sv,     "desert"sv,
    "drift"sv,   "eagle"sv,      "echo"sv,       "ember"sv,   "evergreen"sv, "falcon"sv,
    "fern"sv,    "firefly"sv,    "fjord"sv,      "forge"sv,   "fox"sv,       "frontier"sv,
    "galaxy"sv,  "garnet"sv,     "glacier"sv,    "granite"sv, "grove"sv,     "harbor"sv,
    "hawk"sv,    "heron"sv,      "highland"sv,   "horizon"sv, "indigo"sv,    "iris"sv,
    "ivory"sv,   "jade"sv,       "juniper"sv,    "kestrel"sv, "lagoon"sv,    "lantern"sv,
    "laurel"sv,  "lighthouse"sv, "lotus"sv,      "lumen"sv,   "magnolia"sv,  "maple"sv,
    "marble"sv,  "meadow"sv,     "meridian"sv,   "mesa"sv,    "midnight"sv,  "mosaic"sv,
    "nebula"sv,  "nimbus"sv,     "north"sv,      "oak"sv,     "oasis"sv,     "obsidian"sv,
    "ocean"sv,   "olive"sv,      "onyx"sv,       "orbit"sv,   "orchid"sv,    "osprey"sv,
    "pacific"sv, "panther"sv,    "pebble"sv,     "pepper"sv,  "pine"sv,      "pioneer"sv,
    "pixel"sv,   "polar"sv,      "prairie"sv,    "prism"sv,   "quartz"sv,    "quill"sv,
    "raven"sv,   "redwood"sv,    "ridge"sv,      "river"sv,   "rocket"sv,    "saffron"sv,
    "sage"sv,    "sapphire"sv,   "sequoia"sv,    "shadow"sv,  "sierra"sv,    "silver"sv,
    "sparrow"sv, "spruce"sv,     "starling"sv,   "stone"sv,   "summit"sv,    "sunrise"sv,
    "tangent"sv, "thunder"sv,    "timber"sv,     "topaz"sv,   "tundra"sv,    "twilight"sv,
    "valley"sv,  "vector"sv,     "velvet"sv,     "vertex"sv,  "willow"sv,    "zenith"sv,
    "zephyr"sv,  "harvest"sv,
};

constexpr std::string_view kTldWords[] = {
    "com"sv, "com"sv, "com"sv,   "com"sv, "org"sv, "org"sv, "net"sv, "net"sv,
    "io"sv,  "de"sv,  "co.uk"sv, "fr"sv,  "nl"sv,  "edu"sv, "gov"sv, "info"sv,
};

constexpr std::string_view kSubdomainWords[] = {
    "www"sv,  "www"sv,  "www"sv,  "www"sv,  "www"sv,  "www"sv,   "www"sv,     "www"sv,
    "docs"sv, "blog"sv, "news"sv, "shop"sv, "wiki"sv, "forum"sv, "support"sv, "media"sv,
};

constexpr std::string_view kUrlSectionWords[] = {
    "en"sv,        "en-us"sv,    "products"sv, "news"sv,      "blog"sv,      "docs"sv,
    "support"sv,   "articles"sv, "archive"sv,  "wiki"sv,      "forum"sv,     "category"sv,
    "downloads"sv, "images"sv,   "media"sv,    "static"sv,    "assets"sv,    "files"sv,
    "help"sv,      "library"sv,  "research"sv, "reference"sv, "projects"sv,  "users"sv,
    "posts"sv,     "events"sv,   "store"sv,    "catalog"sv,   "community"sv, "learn"sv,
    "resources"sv, "topics"sv,
};

constexpr std::string_view kPathRootWords[] = {
    "/home/"sv,      "/home/"sv,      "/home/"sv,        "/home/"sv,
    "/srv/"sv,       "/var/www/"sv,   "/var/lib/"sv,     "/opt/"sv,
    "/usr/share/"sv, "/usr/local/"sv, "/mnt/data/"sv,    "/data/"sv,
    "/Users/"sv,     "/Users/"sv,     "/export/home/"sv, "/media/backup/"sv,
};

constexpr std::string_view kUserNameWords[] = {
    "alice"sv,   "bob"sv,    "carol"sv, "dave"sv,  "erin"sv,    "frank"sv,  "grace"sv,  "heidi"sv,
    "ivan"sv,    "judy"sv,   "karl"sv,  "laura"sv, "mallory"sv, "nina"sv,   "oscar"sv,  "peggy"sv,
    "quentin"sv, "rupert"sv, "sybil"sv, "trent"sv, "ursula"sv,  "victor"sv, "walter"sv, "xavier"sv,
    "yvonne"sv,  "zoe"sv,    "admin"sv, "build"sv, "deploy"sv,  "backup"sv, "shared"sv, "staff"sv,
};

constexpr std::string_view kPathSectionWords[] = {
    "projects"sv,  "src"sv,       "lib"sv,     "include"sv, "docs"sv,      "test"sv,
    "build"sv,     "assets"sv,    "config"sv,  "scripts"sv, "tools"sv,     "data"sv,
    "images"sv,    "photos"sv,    "music"sv,   "videos"sv,  "documents"sv, "downloads"sv,
    "backup"sv,    "archive"sv,   "reports"sv, "notes"sv,   "share"sv,     "cache"sv,
    "logs"sv,      "workspace"sv, "repos"sv,   "vendor"sv,  "packages"sv,  "resources"sv,
    "templates"sv, "public"sv,
};

constexpr std::string_view kTopicWords[] = {
    "account"sv,   "address"sv,    "agent"sv,      "album"sv,     "analysis"sv,  "animal"sv,
    "answer"sv,    "archive"sv,    "area"sv,       "article"sv,   "audio"sv,     "balance"sv,
    "bank"sv,      "battery"sv,    "bridge"sv,     "budget"sv,    "buffer"sv,    "building"sv,
    "cable"sv,     "calendar"sv,   "camera"sv,     "campaign"sv,  "capital"sv,   "career"sv,
    "catalog"sv,   "channel"sv,    "chapter"sv,    "chart"sv,     "circuit"sv,   "city"sv,
    "client"sv,    "climate"sv,    "cluster"sv,    "coffee"sv,    "college"sv,   "column"sv,
    "company"sv,   "compiler"sv,   "computer"sv,   "concert"sv,   "contract"sv,  "control"sv,
    "country"sv,   "course"sv,     "customer"sv,   "database"sv,  "design"sv,    "device"sv,
    "diagram"sv,   "display"sv,    "document"sv,   "economy"sv,   "editor"sv,    "energy"sv,
    "engine"sv,    "episode"sv,    "equipment"sv,  "estate"sv,    "event"sv,     "exhibit"sv,
    "family"sv,    "feature"sv,    "festival"sv,   "finance"sv,   "flight"sv,    "football"sv,
    "forest"sv,    "format"sv,     "framework"sv,  "furniture"sv, "gallery"sv,   "garden"sv,
    "gateway"sv,   "geography"sv,  "guide"sv,      "hardware"sv,  "health"sv,    "history"sv,
    "holiday"sv,   "hospital"sv,   "hotel"sv,      "housing"sv,   "industry"sv,  "insurance"sv,
    "interface"sv, "interview"sv,  "invoice"sv,    "island"sv,    "journal"sv,   "kernel"sv,
    "kitchen"sv,   "language"sv,   "lecture"sv,    "library"sv,   "license"sv,   "machine"sv,
    "magazine"sv,  "manual"sv,     "market"sv,     "material"sv,  "medicine"sv,  "meeting"sv,
    "memory"sv,    "message"sv,    "method"sv,     "module"sv,    "monitor"sv,   "mountain"sv,
    "movie"sv,     "museum"sv,     "network"sv,    "notebook"sv,  "ocean"sv,     "office"sv,
    "option"sv,    "orchestra"sv,  "package"sv,    "painting"sv,  "palace"sv,    "paper"sv,
    "parking"sv,   "partner"sv,    "payment"sv,    "people"sv,    "physics"sv,   "picture"sv,
    "planet"sv,    "platform"sv,   "player"sv,     "policy"sv,    "portfolio"sv, "poster"sv,
    "printer"sv,   "problem"sv,    "process"sv,    "product"sv,   "profile"sv,   "program"sv,
    "project"sv,   "property"sv,   "protocol"sv,   "question"sv,  "railway"sv,   "recipe"sv,
    "record"sv,    "region"sv,     "release"sv,    "report"sv,    "request"sv,   "research"sv,
    "resource"sv,  "restaurant"sv, "review"sv,     "river"sv,     "router"sv,    "safety"sv,
    "sample"sv,    "satellite"sv,  "schedule"sv,   "school"sv,    "science"sv,   "screen"sv,
    "season"sv,    "security"sv,   "seminar"sv,    "sensor"sv,    "server"sv,    "service"sv,
    "session"sv,   "shipping"sv,   "signal"sv,     "software"sv,  "solution"sv,  "speaker"sv,
    "sports"sv,    "station"sv,    "statistics"sv, "storage"sv,   "strategy"sv,  "student"sv,
    "studio"sv,    "subject"sv,    "summary"sv,    "support"sv,   "survey"sv,    "system"sv,
    "teacher"sv,   "template"sv,   "terminal"sv,   "theater"sv,   "theory"sv,    "ticket"sv,
    "tourism"sv,   "traffic"sv,    "training"sv,   "transport"sv, "travel"sv,    "treasury"sv,
    "tutorial"sv,  "university"sv, "update"sv,     "user"sv,      "vacation"sv,  "vehicle"sv,
    "version"sv,   "video"sv,      "village"sv,    "volume"sv,    "weather"sv,   "website"sv,
    "weekend"sv,   "window"sv,     "winter"sv,     "wireless"sv,  "workshop"sv,  "world"sv,
    "writer"sv,    "year"sv,       "zone"sv,       "harbor"sv,    "valley"sv,    "market"sv,
    "archive"sv,   "network"sv,    "gallery"sv,    "desktop"sv,   "laptop"sv,    "mobile"sv,
    "tablet"sv,    "storage"sv,    "backup"sv,
};

constexpr std::string_view kSlugWordList[] = {
    "how"sv,          "to"sv,           "the"sv,          "a"sv,
    "of"sv,           "and"sv,          "for"sv,          "in"sv,
    "with"sv,         "new"sv,          "best"sv,         "top"sv,
    "guide"sv,        "review"sv,       "update"sv,       "install"sv,
    "configure"sv,    "setup"sv,        "build"sv,        "create"sv,
    "manage"sv,       "remove"sv,       "fix"sv,          "using"sv,
    "first"sv,        "final"sv,        "draft"sv,        "annual"sv,
    "monthly"sv,      "weekly"sv,       "daily"sv,        "quick"sv,
    "simple"sv,       "complete"sv,     "advanced"sv,     "basic"sv,
    "free"sv,         "open"sv,         "local"sv,        "global"sv,
    "public"sv,       "private"sv,      "small"sv,        "large"sv,
    "modern"sv,       "classic"sv,      "summer"sv,       "winter"sv,
    "spring"sv,       "autumn"sv,       "north"sv,        "south"sv,
    "east"sv,         "west"sv,         "report"sv,       "summary"sv,
    "notes"sv,        "overview"sv,     "introduction"sv, "tutorial"sv,
    "example"sv,      "results"sv,      "analysis"sv,     "proposal"sv,
    "minutes"sv,      "agenda"sv,       "invoice"sv,      "receipt"sv,
    "contract"sv,     "budget"sv,       "forecast"sv,     "schedule"sv,
    "photo"sv,        "image"sv,        "picture"sv,      "video"sv,
    "track"sv,        "episode"sv,      "chapter"sv,      "section"sv,
    "part"sv,         "page"sv,         "index"sv,        "list"sv,
    "table"sv,        "chart"sv,        "map"sv,          "plan"sv,
    "design"sv,       "layout"sv,       "server"sv,       "client"sv,
    "network"sv,      "storage"sv,      "cache"sv,        "memory"sv,
    "disk"sv,         "file"sv,         "data"sv,         "record"sv,
    "query"sv,        "index"sv,        "parser"sv,       "writer"sv,
    "reader"sv,       "handler"sv,      "manager"sv,      "service"sv,
    "config"sv,       "options"sv,      "settings"sv,     "utils"sv,
    "helpers"sv,      "types"sv,        "model"sv,        "view"sv,
    "controller"sv,   "router"sv,       "session"sv,      "token"sv,
    "user"sv,         "account"sv,      "profile"sv,      "order"sv,
    "payment"sv,      "cart"sv,         "product"sv,      "price"sv,
    "stock"sv,        "market"sv,       "trade"sv,        "bank"sv,
    "city"sv,         "river"sv,        "mountain"sv,     "lake"sv,
    "island"sv,       "forest"sv,       "garden"sv,       "house"sv,
    "school"sv,       "museum"sv,       "hotel"sv,        "station"sv,
    "team"sv,         "player"sv,       "game"sv,         "match"sv,
    "season"sv,       "league"sv,       "music"sv,        "album"sv,
    "song"sv,         "concert"sv,      "festival"sv,     "tour"sv,
    "recipe"sv,       "kitchen"sv,      "coffee"sv,       "bread"sv,
    "cheese"sv,       "wine"sv,         "travel"sv,       "flight"sv,
    "train"sv,        "road"sv,         "bridge"sv,       "harbor"sv,
    "health"sv,       "fitness"sv,      "doctor"sv,       "science"sv,
    "physics"sv,      "history"sv,      "family"sv,       "wedding"sv,
    "birthday"sv,     "holiday"sv,      "vacation"sv,     "weekend"sv,
    "old"sv,          "latest"sv,       "archive"sv,      "backup"sv,
    "copy"sv,         "version"sv,      "release"sv,      "patch"sv,
    "changes"sv,      "history"sv,      "readme"sv,       "license"sv,
    "test"sv,         "benchmark"sv,    "speed"sv,        "load"sv,
    "stress"sv,       "check"sv,        "black"sv,        "white"sv,
    "red"sv,          "green"sv,        "blue"sv,         "golden"sv,
    "silver"sv,       "bright"sv,       "dark"sv,         "light"sv,
    "fast"sv,         "slow"sv,         "secure"sv,       "hidden"sv,
    "shared"sv,       "common"sv,       "special"sv,      "extra"sv,
    "dashboard"sv,    "migration"sv,    "beginners"sv,    "community"sv,
    "checklist"sv,    "interview"sv,    "conference"sv,   "production"sv,
    "background"sv,   "operations"sv,   "installing"sv,   "maintenance"sv,
    "performance"sv,  "application"sv,  "development"sv,  "engineering"sv,
    "instructions"sv, "presentation"sv, "requirements"sv, "architecture"sv,
};

constexpr std::string_view kUrlExtensionWords[] = {
    "html"sv, "html"sv, "html"sv,  "html"sv, "htm"sv,  "php"sv, "php"sv, "aspx"sv,
    "jsp"sv,  "pdf"sv,  "shtml"sv, "xml"sv,  "json"sv, "cgi"sv, "txt"sv, "html"sv,
};

constexpr std::string_view kPathExtensionWords[] = {
    "c"sv,   "h"sv,   "cc"sv,  "cpp"sv,  "py"sv,  "java"sv, "js"sv,   "go"sv,
    "rs"sv,  "txt"sv, "md"sv,  "json"sv, "xml"sv, "yaml"sv, "conf"sv, "log"sv,
    "csv"sv, "pdf"sv, "jpg"sv, "jpeg"sv, "png"sv, "gif"sv,  "svg"sv,  "html"sv,
    "css"sv, "sh"sv,  "tex"sv, "doc"sv,  "odt"sv, "zip"sv,  "ini"sv,  "sql"sv,
};

constexpr std::string_view kAbsentExtensionWords[] = {
    "bak"sv, "orig"sv, "old"sv, "tmp"sv, "swp"sv, "part"sv, "rej"sv, "save"sv,
};

template <size_t N>
constexpr WordList MakeList(const std::string_view (&words)[N]) {
  return WordList{words, static_cast<uint32_t>(N)};
}

}  // namespace

const WordList kHostNames = MakeList(kHostNameWords);
const WordList kTopLevelDomains = MakeList(kTldWords);
const WordList kSubdomains = MakeList(kSubdomainWords);
const WordList kUrlSections = MakeList(kUrlSectionWords);
const WordList kPathRoots = MakeList(kPathRootWords);
const WordList kUserNames = MakeList(kUserNameWords);
const WordList kPathSections = MakeList(kPathSectionWords);
const WordList kTopics = MakeList(kTopicWords);
const WordList kSlugWords = MakeList(kSlugWordList);
const WordList kUrlExtensions = MakeList(kUrlExtensionWords);
const WordList kPathExtensions = MakeList(kPathExtensionWords);
const WordList kAbsentExtensions = MakeList(kAbsentExtensionWords);

}  // namespace kvbench::datasets::words
