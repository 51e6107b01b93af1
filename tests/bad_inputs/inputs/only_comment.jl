# Only a comment: this file defines nothing.
